package serve

import (
	"testing"

	"synth/checks/checkstest"
	"synth/schemas"
)

// TestChecksThatDieGiveRewardZero: an episode that leaves files the checks
// die on ends with reward 0 and the rollout's failure, check_crash, in its
// verdict: the policy's doing, not the server's (sandbox_crash).
func TestChecksThatDieGiveRewardZero(t *testing.T) {
	b := checkstest.CrashingChecks(testBackend(t, 2))
	_, hs := testServer(t, b, Config{MaxTurns: 3})
	var res Result
	if st := post(t, hs.URL+"/reset", "", ResetRequest{TaskID: "t-math"}, &res); st != 200 {
		t.Fatalf("reset: %d", st)
	}
	id := res.Observation.EpisodeID
	write := "Action:\n```python\nimport os\nos.makedirs('output', exist_ok=True)\nopen('output/" + checkstest.DieOn + "', 'w').write('x')\n```"
	for _, content := range []string{write, "Finished: 391"} {
		res = Result{}
		if st := post(t, hs.URL+"/step", "", map[string]any{"episode_id": id, "action": map[string]any{"content": content}}, &res); st != 200 {
			t.Fatalf("step: %d", st)
		}
	}
	v := res.Observation.Verdict
	if !res.Done || res.Reward == nil || *res.Reward != 0 || v == nil || v.Passed || v.Failure != schemas.FailCheckCrash || b.Opened() != 1 {
		t.Fatalf("done %v, reward %v, verdict %+v, %d verifications: want reward 0 for check_crash, verified once", res.Done, res.Reward, v, b.Opened())
	}
}
