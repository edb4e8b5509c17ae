package template

import (
	"strings"
	"testing"

	"synth/generators"
	"synth/pyenv/pyenvtest"
)

// changelog is a CHANGELOG.md in the keep-a-changelog style: versions and
// dates in its level-2 headings, level-2 and level-3 headings of the same
// names (Added, Fixed), a title and link definitions.
const changelog = `# Changelog
All notable changes to this project are documented here.

## [0.11.0] - 2024-03-07
## Added
- a table finder.
## Fixed
- a crash on empty pages.

## [0.10.4] - 2024-02-10
### Added
- ` + "`page.search`" + ` options.
### Fixed
- rotated text.

## [0.10.3] - 2023-10-26
### Changed
- faster char parsing.
### Fixed
- missing glyphs.

[0.11.0]: https://example.org/compare/v0.10.4...v0.11.0
`

func says(name, answer string) solution {
	return solution{name: name, own: true, steps: []string{"print('done')"}, answer: answer}
}

// TestHeadingsListedExactly: the level-2 headings are checked as a list in
// their order: the level-3 headings added, two swapped, one left out or
// the title and every heading stuffed in fail; the list with its versions
// and dates as printed, a Markdown parser's text without brackets, or a
// Chinese answer pass.
func TestHeadingsListedExactly(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeFile(t, t.TempDir(), "CHANGELOG.md", "md", []byte(changelog))}
	judge(t, ins, "md.headings",
		[]solution{
			says("level-3 headings added", "The second-level headings are: [0.11.0] - 2024-03-07; Added; Fixed; [0.10.4] - 2024-02-10; Added; Fixed; [0.10.3] - 2023-10-26; Changed; Fixed."),
			says("two swapped", "The second-level headings are: [0.11.0] - 2024-03-07; Fixed; Added; [0.10.4] - 2024-02-10; [0.10.3] - 2023-10-26."),
			says("one left out", "The second-level headings are: [0.11.0] - 2024-03-07; Added; Fixed; [0.10.4] - 2024-02-10."),
			says("every heading", "Changelog; [0.11.0] - 2024-03-07; Added; Fixed; [0.10.4] - 2024-02-10; Added; Fixed; [0.10.3] - 2023-10-26; Changed; Fixed."),
			says("nothing", "I could not find a clear answer; maybe 7."),
		},
		[]solution{
			{name: "as printed, by a regex of its own", own: true, steps: []string{"import re, glob\ntext = open(glob.glob('data/*.md')[0]).read()\nprint(re.findall(r'(?m)^## (.+)$', text))"},
				answer: "The second-level headings are: [0.11.0] - 2024-03-07; Added; Fixed; [0.10.4] - 2024-02-10; [0.10.3] - 2023-10-26."},
			says("a parser's text, numbered", "1. 0.11.0 - 2024-03-07\n2. Added\n3. Fixed\n4. 0.10.4 - 2024-02-10\n5. 0.10.3 - 2023-10-26"),
			says("the title named once", "The Changelog has these level-2 headings: [0.11.0] - 2024-03-07, Added, Fixed, [0.10.4] - 2024-02-10 and [0.10.3] - 2023-10-26."),
			says("chinese", "二级标题有：[0.11.0] - 2024-03-07；Added；Fixed；[0.10.4] - 2024-02-10；[0.10.3] - 2023-10-26。"),
		})
}

// tiedWords is a text whose second and third most frequent long words tie
// (orange 11, october 7, december 7, november 5).
func tiedWords() string {
	var b strings.Builder
	for _, p := range []struct {
		w string
		n int
	}{{"orange", 11}, {"october", 7}, {"december", 7}, {"november", 5}, {"yellow", 2}} {
		for range p.n {
			b.WriteString("The " + p.w + " was sold. ")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestTopWordsTiesHaveNoOrder: two words of the same count may come in
// either order; a more frequent word after a less frequent one, or the
// fourth word for the third, fail.
func TestTopWordsTiesHaveNoOrder(t *testing.T) {
	pyenvtest.Python(t)
	ins := []generators.Input{writeFile(t, t.TempDir(), "fruit.txt", "txt", []byte(tiedWords()))}
	judge(t, ins, "text.topword",
		[]solution{
			says("the first after a tied one", "The top words are october (7), orange (11) and december (7)."),
			says("the fourth for the third", "The top words are orange (11), october (7) and november (5)."),
			says("ranks 2 to 4", "The top words are october (7), december (7) and november (5)."),
		},
		[]solution{
			says("october first", "The three most frequent words are orange (11), october (7), december (7)."),
			says("december first", "The three most frequent words are orange (11), december (7), october (7)."),
		})
}
