package template

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"synth/schemas"
)

// mutateCopyInput is a wrong solution for tasks that transform their input
// into an output file: it writes the input unchanged to the output path,
// keeping the reference's answer, so the file checks alone must catch it.
func mutateCopyInput(t *schemas.Task) *schemas.Reference {
	if len(t.Outputs) == 0 || len(t.Files) == 0 || t.Reference == nil {
		return nil
	}
	out := "./" + t.Outputs[0]
	in := "./data/" + t.Files[0].Name
	var code string
	switch strings.TrimPrefix(path.Ext(out), ".") {
	case "csv", "xlsx", "json":
		load := map[string]string{"xlsx": "pd.read_excel(%s)", "xls": "pd.read_excel(%s)", "json": "pd.read_json(%s)", "tsv": "pd.read_csv(%s, sep='\\t')", "parquet": "pd.read_parquet(%s)"}[t.Files[0].Type]
		if load == "" {
			load = "pd.read_csv(%s)"
		}
		save := map[string]string{"xlsx": "df.to_excel(%s, index=False)", "json": "df.to_json(%s, orient='records')"}[strings.TrimPrefix(path.Ext(out), ".")]
		if save == "" {
			save = "df.to_csv(%s, index=False)"
		}
		code = "import os, pandas as pd\n" + makeDirFor(out) + "\ndf = " + fmt.Sprintf(load, py(in)) + "\n" + fmt.Sprintf(save, py(out))
	case "png", "jpg", "jpeg", "gif", "webp", "bmp":
		code = fmt.Sprintf("import os\nfrom PIL import Image\n"+makeDirFor(out)+"\nim = Image.open(%s)\nif %s.endswith(('.jpg', '.jpeg')):\n    im = im.convert('RGB')\nim.save(%s)", py(in), py(out), py(out))
	default:
		code = fmt.Sprintf("import os, shutil\n"+makeDirFor(out)+"\nshutil.copy(%s, %s)", py(in), py(out))
	}
	return &schemas.Reference{Steps: []schemas.RefStep{{Thought: "Save the input unchanged.", Code: code}}, Answer: t.Reference.Answer}
}

var numRE = regexp.MustCompile(`\d+(?:\.\d+)?`)

// mutateAnswer is the reference with every number in its answer changed.
func mutateAnswer(t *schemas.Task) *schemas.Reference {
	if t.Reference == nil || !numRE.MatchString(t.Reference.Answer) {
		return nil
	}
	a := numRE.ReplaceAllStringFunc(t.Reference.Answer, func(s string) string {
		f, _ := strconv.ParseFloat(s, 64)
		return strconv.FormatFloat(f*1.37+3, 'f', 2, 64)
	})
	steps := t.Reference.Steps
	if len(t.Outputs) == 0 {
		steps = nil // only the answer is checked: no need to run the code again
	}
	return &schemas.Reference{Steps: steps, Answer: a}
}

// mutateCode is a near-miss solution: the reference with one edit in its
// code (the other sort direction, the other aggregate, the other rotation),
// keeping its answer. It is nil when the edit does not apply.
func mutateCode(pairs ...string) func(*schemas.Task) *schemas.Reference {
	return func(t *schemas.Task) *schemas.Reference {
		if t.Reference == nil {
			return nil
		}
		steps := append([]schemas.RefStep(nil), t.Reference.Steps...)
		changed := false
		for i := range steps {
			for k := 0; k+1 < len(pairs); k += 2 {
				if strings.Contains(steps[i].Code, pairs[k]) {
					steps[i].Code = strings.Replace(steps[i].Code, pairs[k], pairs[k+1], 1)
					changed = true
					break
				}
			}
		}
		if !changed {
			return mutateCopyInput(t)
		}
		return &schemas.Reference{Steps: steps, Answer: t.Reference.Answer}
	}
}

var cropRE = regexp.MustCompile(`im\.crop\(\((\d+), (\d+), (\d+), (\d+)\)\)`)

// mutateShiftCrop crops a box of the right size 20 pixels off to the side.
func mutateShiftCrop(t *schemas.Task) *schemas.Reference {
	if t.Reference == nil {
		return nil
	}
	steps := append([]schemas.RefStep(nil), t.Reference.Steps...)
	for i := range steps {
		steps[i].Code = cropRE.ReplaceAllStringFunc(steps[i].Code, func(m string) string {
			g := cropRE.FindStringSubmatch(m)
			n := make([]int, 4)
			for k := range n {
				n[k], _ = strconv.Atoi(g[k+1])
			}
			d := 20
			if n[0] >= 20 {
				d = -20
			}
			return fmt.Sprintf("im.crop((%d, %d, %d, %d))", n[0]+d, n[1], n[2]+d, n[3])
		})
	}
	return &schemas.Reference{Steps: steps, Answer: t.Reference.Answer}
}

// mutateBlankImage writes a blank image where the chart should be.
func mutateBlankImage(t *schemas.Task) *schemas.Reference {
	if len(t.Outputs) == 0 || t.Reference == nil {
		return nil
	}
	code := fmt.Sprintf("import os\nfrom PIL import Image\n"+makeDirFor("./"+t.Outputs[0])+"\nImage.new('RGB', (640, 480), 'white').save(%s)", py("./"+t.Outputs[0]))
	return &schemas.Reference{Steps: []schemas.RefStep{{Thought: "Save an empty canvas.", Code: code}}, Answer: t.Reference.Answer}
}

// mutateEmptyFile writes a placeholder where the output should be.
func mutateEmptyFile(t *schemas.Task) *schemas.Reference {
	if len(t.Outputs) == 0 || t.Reference == nil {
		return nil
	}
	code := fmt.Sprintf("import os\n"+makeDirFor("./"+t.Outputs[0])+"\nopen(%s, 'w').write('TODO\\n')", py("./"+t.Outputs[0]))
	return &schemas.Reference{Steps: []schemas.RefStep{{Thought: "Write a placeholder.", Code: code}}, Answer: t.Reference.Answer}
}

// mutateWrongGroup answers with the least frequent group instead.
func mutateWrongGroup(t *schemas.Task) *schemas.Reference {
	if t.Reference == nil || len(t.Checks) == 0 || len(t.Checks[0].ContainsAll) == 0 {
		return nil
	}
	return &schemas.Reference{Steps: t.Reference.Steps, Answer: "I could not find a clear answer; maybe 7."}
}
