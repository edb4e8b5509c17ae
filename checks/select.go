package checks

import "synth/schemas"

// AnswerChecks returns the checks of cs that judge the final answer alone,
// in order: what a case holding only an answer can be verified against.
func AnswerChecks(cs []schemas.Check) []schemas.Check {
	var out []schemas.Check
	for _, c := range cs {
		if c.Kind == schemas.CheckAnswer {
			out = append(out, c)
		}
	}
	return out
}

// FirstFailure describes the first failed result of rs as "kind: message",
// or returns "" when every check passed.
func FirstFailure(rs []schemas.CheckResult) string {
	for _, r := range rs {
		if !r.OK {
			return r.Kind + ": " + r.Message
		}
	}
	return ""
}
