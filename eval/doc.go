// Package eval is synth eval: it plays a teacher on every task of a
// benchmark folder (Teacher.Samples times each) in the sandbox, prompt
// format and checks that make the training data, optionally has an LLM
// judge give its opinion beside the checks' verdict, and scores the results
// (Evaluate). It owns the eval's config, options and result; the results
// folder's meaning (eval.json's record, results.jsonl's replacement rule,
// summary.json and report.md written when the eval ends) and reading a
// finished one back (LoadFolder); the judge (JudgeConfig); and what synth
// serve reads from a benchmark folder and records as a results folder
// (ServeBench, ServeRecord).
//
// Each rollout or judgement is a job of package runner, the one journaled
// runner, so an interrupted eval resumes; rollouts are played through
// package rollout, as a build plays its own. The results folder's names and
// its journal are package rundir's; scoring and the benchmark folder's
// layout are package bench's.
//
// It imports runner, rundir, rollout and the packages below them (agent,
// bench, checks/adversary, filters, llm, sandbox, schemas, serve, sources),
// never pipeline; pipeline does not import it.
package eval
