package template

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"synth/generators"
)

// outNames gives each template's output a name a person would choose:
// %s is the stem of the input file (sales for sales.csv), joined with "_"
// for two inputs. Templates not listed use the last part of their name.
var outNames = map[string]string{
	"audio.concat": "combined_%s", "audio.convert": "converted_%s", "audio.duration": "%s_duration",
	"audio.fade": "faded_%s", "audio.repeat": "looped_%s", "audio.resample": "resampled_%s",
	"audio.reverse": "reversed_%s", "audio.trim": "trimmed_%s", "audio.volume": "louder_%s",
	"chart.bar": "%s_bar_chart", "chart.box": "%s_boxplot", "chart.heatmap": "%s_correlation_heatmap",
	"chart.hist": "%s_histogram", "chart.line": "%s_trend", "chart.pie": "%s_share_pie",
	"chart.radar": "%s_radar", "chart.scatter": "%s_scatter",
	"docx.paragraphs": "%s_paragraphs", "docx.totext": "%s_text",
	"html.links": "%s_links", "html.title": "%s_title",
	"image.blur": "blurred_%s", "image.brightness": "brightened_%s", "image.caption": "captioned_%s",
	"image.concat": "combined_%s", "image.contrast": "enhanced_%s", "image.convert": "converted_%s",
	"image.crop": "cropped_%s", "image.flip": "flipped_%s", "image.gifframes": "%s_frames",
	"image.grayscale": "grayscale_%s", "image.mirrorconcat": "mirrored_%s", "image.qrcode": "qr_code",
	"image.resize": "resized_%s", "image.rotate": "rotated_%s", "image.sharpen": "sharpened_%s",
	"image.size":  "%s_size",
	"md.headings": "%s_outline", "md.table": "%s_table",
	"ml.classify": "%s_classifier", "ml.cluster": "%s_clusters", "ml.regress": "%s_regression",
	"pdf.extract": "%s_text", "pdf.page": "%s_page", "pdf.pages": "%s_pages", "pdf.wordcount": "%s_word_counts",
	"program.class": "model", "program.function": "solution",
	"table.addcol": "%s_with_new_column", "table.convert": "converted_%s", "table.corr": "%s_correlations",
	"table.dates": "%s_dates_fixed", "table.dedup": "deduplicated_%s", "table.describe": "%s_summary",
	"table.dropna": "cleaned_%s", "table.fillna": "filled_%s", "table.filter": "filtered_%s",
	"table.groupby": "%s_by_group", "table.iqr": "%s_without_outliers", "table.join": "merged_%s",
	"table.missing": "%s_missing_values", "table.monthly": "monthly_%s", "table.nunique": "%s_unique_counts",
	"table.pivot": "%s_pivot", "table.shape": "%s_shape", "table.sort": "sorted_%s", "table.stat": "%s_stats",
	"table.topgroup": "%s_top_group", "table.topn": "top_%s", "table.types": "%s_types",
	"text.freqtable": "%s_word_frequencies", "text.lines": "%s_lines", "text.replace": "edited_%s",
	"text.sentences": "%s_sentences", "text.summary": "%s_summary", "text.topword": "%s_top_words",
	"text.wordcloud": "%s_wordcloud", "text.wordcount": "%s_word_count", "text.years": "%s_years",
	"web.datatable": "%s_table", "web.form": "contact_form", "web.page": "landing_page",
	"xlsx.sheets": "%s_sheets",
}

// outName is the stem of a task's output files (no directory, no
// extension): the template's operation and the input files' stems, so
// table.dropna on sales.csv writes cleaned_sales. It depends only on the
// template and the file names, so both languages of a task name the same
// file.
func outName(tmplName string, files []generators.Input) string {
	var stems []string
	for _, f := range files {
		stems = append(stems, fileStem(f.File.Name))
	}
	stem := strings.Join(stems, "_")
	if stem == "" {
		stem = "data"
	}
	pattern, ok := outNames[tmplName]
	if !ok {
		pattern = tmplName[strings.LastIndex(tmplName, ".")+1:] + "_%s"
	}
	if !strings.Contains(pattern, "%s") {
		return pattern
	}
	return strings.Replace(pattern, "%s", stem, 1)
}

// fileStem is a file name without directory and extension, lower case,
// with every run of characters other than a-z and 0-9 turned into one "_";
// a name with none of those (a Chinese name) gives "data".
func fileStem(name string) string {
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	base = strings.TrimSuffix(base, path.Ext(base))
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(base) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
			continue
		}
		under = true
	}
	s := b.String()
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "_")
	}
	if s == "" {
		return "data"
	}
	return s
}

// outNamer hands out output names unique within one Generate call, so no
// two tasks of a benchmark (which PyBench runs in one folder) write the
// same file: a name taken gets _2, _3, ….
type outNamer map[string]bool

func (u outNamer) unique(name string) string {
	n := name
	for k := 2; u[n]; k++ {
		n = fmt.Sprintf("%s_%d", name, k)
	}
	u[n] = true
	return n
}

// outDirs is the folder under output/ a person keeps a template family's
// files in when they ask for one: ./output/figures/sales_bar_chart.png.
// Families not listed always write straight into output/.
var outDirs = map[string]string{
	"chart": "figures", "table": "tables", "image": "images", "audio": "audio",
	"text": "reports", "pdf": "reports", "docx": "reports", "md": "reports",
}

// nestedShare is the percentage of a listed family's tasks whose query asks
// for a file in a folder of output/ that does not exist yet, so a solver
// has to create it (os.makedirs) before saving.
const nestedShare = 35

// mkOutput is the statement with which a reference creates output/ before
// writing into it.
const mkOutput = "os.makedirs('./output', exist_ok=True)"

// nestedName is name in the folder of output/ that the template's family
// keeps its files in, for about nestedShare in 100 names chosen by a hash
// of the template and name; otherwise, or when the spec's reference does
// not create output/ before each step that writes there (it could not be
// pointed at the folder), name itself.
func nestedName(tmplName, name string, s spec) string {
	dir := outDirs[tmplName[:max(0, strings.Index(tmplName, "."))]]
	if dir == "" || !createsOutput(s) {
		return name
	}
	h := hashHex("outdir", tmplName, name)
	if n, _ := strconv.ParseUint(h[:8], 16, 64); n%100 >= nestedShare {
		return name
	}
	return dir + "/" + name
}

// createsOutput reports whether every reference step that writes an output
// creates output/ (with mkOutput) before it first names the output.
func createsOutput(s spec) bool {
	writes := false
	for _, st := range s.steps {
		at := strings.Index(st.Code, "{OUT}")
		if at < 0 {
			continue
		}
		writes = true
		if mk := strings.Index(st.Code, mkOutput); mk < 0 || mk > at {
			return false
		}
	}
	return writes
}

// makeDirFor is the Python statement that creates the folder of output
// path p (./output/figures/x.png: ./output/figures).
func makeDirFor(p string) string {
	return fmt.Sprintf("os.makedirs(%s, exist_ok=True)", py(path.Dir(p)))
}
