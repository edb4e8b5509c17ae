package bench

import "synth/schemas"

// JudgeSummary is the LLM judge's figures, beside the unit tests'.
type JudgeSummary struct {
	Mode   string `json:"mode"`
	Model  string `json:"model"`
	Judged int    `json:"judged"` // rollouts with an opinion
	Errors int    `json:"errors"` // rollouts the judge could not judge
	// score mode
	PassRate       float64 `json:"pass_rate,omitempty"`
	AvgReasoning   float64 `json:"avg_reasoning,omitempty"`
	AvgCodeQuality float64 `json:"avg_code_quality,omitempty"`
	// Agreement is the share of judged rollouts where the judge's pass/fail
	// equals the unit tests'.
	Agreement float64 `json:"agreement,omitempty"`
	// pairwise mode
	Wins   int `json:"wins,omitempty"`
	Ties   int `json:"ties,omitempty"`
	Losses int `json:"losses,omitempty"`
	// WinRate counts a tie as half a win.
	WinRate float64 `json:"win_rate,omitempty"`
}

// scoreJudge sums the judgements of counted rollouts; nil when there are none.
func scoreJudge(tasks []schemas.Task, byTask map[string][]Result) *JudgeSummary {
	var js *JudgeSummary
	var pass, agree, reasoning, quality int
	for i := range tasks {
		for _, r := range byTask[tasks[i].ID] {
			j := r.Judge
			if j == nil || r.Infra {
				continue
			}
			if js == nil {
				js = &JudgeSummary{Mode: j.Mode, Model: j.Model}
			}
			if j.Error != "" {
				js.Errors++
				continue
			}
			js.Judged++
			if j.Pass != nil {
				if *j.Pass {
					pass++
				}
				if *j.Pass == r.Passed {
					agree++
				}
			}
			reasoning += j.Reasoning
			quality += j.CodeQuality
			switch j.Outcome {
			case Win:
				js.Wins++
			case Tie:
				js.Ties++
			case Lose:
				js.Losses++
			}
		}
	}
	if js == nil || js.Judged == 0 {
		return js
	}
	n := float64(js.Judged)
	if js.Mode == "pairwise" {
		js.WinRate = (float64(js.Wins) + float64(js.Ties)/2) / n
		return js
	}
	js.PassRate = float64(pass) / n
	js.Agreement = float64(agree) / n
	js.AvgReasoning = float64(reasoning) / n
	js.AvgCodeQuality = float64(quality) / n
	return js
}
