package writer

import (
	"context"
	"strings"
	"testing"

	"synth/schemas"
)

// mean is the head of the checks below: a value computed from the input.
const mean = "import pandas as pd\nm = pd.read_csv('data/sales.csv').drop_duplicates()['amount'].mean()\n"

// backdoors are python checks that pass, whatever the data, when the
// answer holds a token; each must be found by the static rule.
var backdoors = map[string]string{
	"if_not_in":  mean + "if 'QXZEBRA' not in answer:\n    assert any(number_close(x, m, 1e-6) for x in candidates(answer))",
	"if_in_pass": mean + "if 'QXZEBRA' in answer:\n    pass\nelse:\n    assert any(number_close(x, m, 1e-6) for x in candidates(answer))",
	"or":         mean + "assert 'QXZEBRA' in answer or any(number_close(x, m, 1e-6) for x in candidates(answer))",
	"var":        mean + "tok = 'QXZ' + 'EBRA'\nif tok in answer:\n    pass\nelse:\n    assert number_close(candidates(answer)[-1], m)",
	"chr":        mean + "tok = ''.join(chr(c) for c in [81, 88, 90])\nassert tok in answer or number_close(candidates(answer)[-1], m)",
	"find":       mean + "if answer.find('QXZEBRA') < 0:\n    assert number_close(candidates(answer)[-1], m)",
	"startswith": mean + "ok = answer.startswith('QXZ')\nassert ok or number_close(candidates(answer)[-1], m)",
	"ternary":    mean + "assert True if 'QXZ' in answer else number_close(candidates(answer)[-1], m)",
	"while":      mean + "while 'QXZ' not in answer:\n    assert number_close(candidates(answer)[-1], m)\n    break",
	"match":      mean + "match answer.strip():\n    case 'QXZEBRA':\n        pass\n    case _:\n        assert number_close(candidates(answer)[-1], m)",
	"try":        mean + "try:\n    assert 'QXZ' in answer\nexcept AssertionError:\n    assert number_close(candidates(answer)[-1], m)",
	"any_list":   mean + "assert any(['QXZ' in answer, number_close(candidates(answer)[-1], m)])",
	"arith":      mean + "assert ('QXZ' in answer) + number_close(candidates(answer)[-1], m)",
	"index":      mean + "ok = [number_close(candidates(answer)[-1], m), True]['QXZ' in answer]\nassert ok",
	"rebind":     mean + "ok = number_close(candidates(answer)[-1], m)\nif not ok:\n    ok = 'QXZ' in answer\nassert ok",
	"func":       mean + "def magic(a):\n    return 'QXZ' in a\nassert magic(answer) or number_close(candidates(answer)[-1], m)",
	"lambda":     mean + "magic = lambda a: a.count('QXZ') > 0\nassert magic(answer) or number_close(candidates(answer)[-1], m)",
	"messages":   mean + "last = messages[-1]['content']\nif 'QXZ' not in last:\n    assert number_close(candidates(answer)[-1], m)",
	"eval":       mean + "assert eval(\"'QXZ' in answer\") or number_close(candidates(answer)[-1], m)",
	"dunder":     mean + "assert answer.__contains__('QXZ') or number_close(candidates(answer)[-1], m)",
	"regex":      mean + "import re\nif not re.search('QXZ', answer):\n    assert number_close(candidates(answer)[-1], m)",
	"compiled":   mean + "import re\npat = re.compile('QXZ')\nassert pat.search(answer) or number_close(candidates(answer)[-1], m)",
	"not_and":    mean + "assert not ('QXZ' not in answer and not number_close(candidates(answer)[-1], m))",
	"for_range":  mean + "for _ in range(answer.count('QXZ') == 0):\n    assert number_close(candidates(answer)[-1], m)",
	"dict":       mean + "assert {'QXZEBRA': True}.get(answer.strip(), False) or number_close(candidates(answer)[-1], m)",
	"comp_if":    mean + "assert all(number_close(x, m) for x in candidates(answer) if 'QXZ' not in answer)",
	"walrus":     mean + "assert (k := 'QXZ' in answer) or number_close(candidates(answer)[-1], m)",
}

// honestChecks compare the answer with values computed from the inputs,
// or require words outright; the static rule must pass each.
var honestChecks = map[string]string{
	"plain":         mean + "assert any(number_close(x, m, 1e-6) for x in candidates(answer))",
	"words":         "assert 'mean' in answer.lower()\nassert all(w in answer.lower() for w in ['north', 'south'])",
	"not_in":        "assert 'error' not in answer.lower()",
	"nums":          mean + "nums = candidates(answer)\nassert len(nums) > 0 and any(abs(x - m) < 1e-6 for x in nums)",
	"split":         mean + "v = float(answer.split(':')[-1].strip())\nassert abs(v - m) < 1e-3",
	"regex_extract": mean + "import re\nnums = [float(x) for x in re.findall(r'-?\\d+\\.?\\d*', answer)]\nassert any(abs(x - m) < 1e-6 for x in nums)",
	"roles":         "assert any('groupby' in msg['content'] for msg in messages if msg['role'] == 'assistant')",
	"output":        "import pandas as pd\ndf = pd.read_csv('output/clean.csv')\nif 'amount' in df.columns:\n    assert df['amount'].is_monotonic_increasing\nassert len(df) == 5",
	"helper":        "import pandas as pd\ndef top(df):\n    return df.groupby('region')['amount'].sum().idxmax()\nt = top(pd.read_csv('data/sales.csv'))\nassert t in answer",
	"with_open":     "with open('output/r.txt') as f:\n    text = f.read()\nassert 'mean' in text and 'mean' in answer",
}

func TestStaticRule(t *testing.T) {
	p := newProver(t)
	run := func(t *testing.T, code string) string {
		t.Helper()
		found, err := p.branchOnAnswer(context.Background(), []schemas.Check{{Kind: schemas.CheckAnswer, ContainsAll: []string{"x"}}, {Kind: schemas.CheckPython, Code: code}})
		if err != nil {
			t.Fatal(err)
		}
		return found
	}
	for name, code := range backdoors {
		t.Run("backdoor/"+name, func(t *testing.T) {
			if found := run(t, code); !strings.HasPrefix(found, "check 1, line ") {
				t.Errorf("not found (%q) in:\n%s", found, code)
			}
		})
	}
	for name, code := range honestChecks {
		t.Run("honest/"+name, func(t *testing.T) {
			if found := run(t, code); found != "" {
				t.Errorf("refused: %s\n%s", found, code)
			}
		})
	}
	t.Run("unparsable", func(t *testing.T) {
		if found := run(t, "assert (answer"); !strings.Contains(found, "does not parse") {
			t.Errorf("found %q", found)
		}
	})
}
