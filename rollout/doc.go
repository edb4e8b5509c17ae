// Package rollout plays one rollout: a teacher's turns on a task in a fresh
// sandbox holding its inputs, what the rollout wrote under output/ collected
// into the artifact store, and its verdict from the task's checks. It is what
// a build (package pipeline) and synth eval (package eval) share to play a
// job: the job and its id, the player, how many rollouts run at once, the
// sandbox backend's settings, the adversary teachers, and a teacher's LLM
// endpoint (Endpoint: when its client must stop the run, and the preflight
// before the first request).
//
// It imports agent, checks, checks/adversary, filters, llm, runner, sandbox
// and schemas; nothing above them.
package rollout
