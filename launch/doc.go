// Package launch writes the jobs that run a synth build on a cluster's own
// scheduler: plan, then N rollout shards, then merge, over a filesystem
// every job sees. Slurm gets sbatch scripts chained with afterok; Kubernetes
// gets a plan Job, an Indexed Job of rollouts and a merge Job over a shared
// volume. synth runs no scheduler of its own.
package launch
