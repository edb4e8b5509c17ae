// Package inspectlog writes an eval's results as an inspect_ai eval log
// (the JSON log format, version 2), so that inspect_ai.log.read_eval_log
// reads it and inspect view lists and shows it: one sample per rollout of a
// benchmark task (the epoch is the rollout's sample number), with its
// messages, the unit tests' verdict as its score and the checks' messages as
// the score's explanation.
//
// The shape follows inspect_ai's pydantic models (EvalLog, EvalSpec,
// EvalSample, Score, ChatMessage, ToolCall in inspect_ai/log/_log.py,
// model/_chat_message.py, scorer/_metric.py and tool/_tool_call.py); only
// the fields synth has are written, and the others keep inspect_ai's
// defaults.
package inspectlog
