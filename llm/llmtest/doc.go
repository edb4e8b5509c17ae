// Package llmtest is a fake OpenAI chat-completions server for tests: it
// answers from a script, can fail, stall or drop connections on cue, and
// records every request it received.
package llmtest
