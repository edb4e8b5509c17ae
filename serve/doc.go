// Package serve serves tasks as a reinforcement-learning environment over
// OpenEnv's protocol (HTTP reset, step and state, and the /ws WebSocket
// session OpenEnv's own client speaks): reset opens a fresh sandbox with a
// task's files and returns the opening messages, step runs the policy's next
// message in it as a rollout would, and the episode's end tears the sandbox
// down and computes the reward with the isolated verifier, the same verdict
// synth eval gives.
package serve
