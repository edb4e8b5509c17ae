// Package writer is the LLM query writer: for each file it shows a model the
// file's preview and a task type drawn from a dictionary, and reads back a
// task: the query, its checks (expected values as Python expressions over
// the input), a reference solution and a wrong one. A task counts only once
// it is proven (Prover): checks that cannot discriminate are refused at
// parse time, expressions are evaluated in the sandbox and frozen, and
// the task is proven through package proof: the reference must pass, and
// the empty rollout, the adversaries of checks/adversary, the wrong
// solution and mutants of the reference must fail; then it is proven again
// on perturbed inputs. A failing draft gets one repair turn that shows the writer what
// failed; then it is dropped and counted by reason (Stats). Near-duplicate
// queries are dropped too, and a critic's review may be added.
package writer
