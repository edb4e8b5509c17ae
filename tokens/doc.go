// Package tokens counts tokens offline, with the o200k_base encoding of
// tiktoken, for statistics and quality gates when a teacher reported no usage.
package tokens
