// Package llm is the LLM query writer: for each file it shows a model the
// file's preview and a task type drawn from a dictionary, and keeps the
// queries and checks the model writes back once they validate, optionally
// after a critic's review, rejecting near-duplicates.
package llm
