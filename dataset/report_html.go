package dataset

import (
	"fmt"
	"html/template"
	"io"
	"strings"
)

// WriteHTML writes the reports as one self-contained HTML page: tables and
// SVG charts, no scripts, nothing loaded from the network. With more than
// one report the page starts with their comparison.
func WriteHTML(w io.Writer, reps ...*Report) error {
	page := htmlPage{}
	for _, r := range reps {
		page.Reports = append(page.Reports, reportView(r))
	}
	if len(reps) > 1 {
		page.Compare = compareView(reps)
	}
	return reportPage.Execute(w, page)
}

type htmlPage struct {
	Compare *htmlCompare
	Reports []htmlView
}

type htmlCompare struct {
	Rows   []htmlRow
	Turns  template.HTML
	Tokens template.HTML
}

func compareView(reps []*Report) *htmlCompare {
	c := &htmlCompare{}
	var stacks []stackRow
	var tokens []barItem
	for _, r := range reps {
		name := r.Name()
		c.Rows = append(c.Rows, htmlRow{Name: name, T: r.Stats.Tally, Rate: rateText(r.Stats.PassRate)})
		stacks = append(stacks, stackRow{Label: name, Values: turnValues(r.Stats.Turns)})
		tokens = append(tokens, barItem{Label: name, Value: r.Stats.AvgTokens, Text: fmt.Sprintf("%.0f", r.Stats.AvgTokens)})
	}
	c.Turns = stackedBars(stacks, []string{"<=3", "4-6", "7-9", ">=10"})
	c.Tokens = hBars(tokens, "#4e79a7")
	return c
}

type htmlView struct {
	R        *Report
	Rows     []htmlRow
	Turns    template.HTML
	Tokens   template.HTML
	Funnel   template.HTML
	Failures template.HTML
}

type htmlRow struct {
	Name string
	T    Tally
	Rate string
}

func reportView(r *Report) htmlView {
	v := htmlView{R: r}
	var stacks []stackRow
	var tokens []barItem
	for _, c := range r.Stats.Categories {
		name := c.Category
		if name == "" {
			name = "(none)"
		}
		v.Rows = append(v.Rows, htmlRow{Name: name, T: c.Tally, Rate: rateText(c.PassRate)})
		stacks = append(stacks, stackRow{Label: name, Values: turnValues(c.Turns)})
		tokens = append(tokens, barItem{Label: name, Value: c.AvgTokens, Text: fmt.Sprintf("%.0f", c.AvgTokens)})
	}
	v.Rows = append(v.Rows, htmlRow{Name: "total", T: r.Stats.Tally, Rate: rateText(r.Stats.PassRate)})
	stacks = append(stacks, stackRow{Label: "total", Values: turnValues(r.Stats.Turns)})
	v.Turns = stackedBars(stacks, []string{"<=3", "4-6", "7-9", ">=10"})
	v.Tokens = hBars(tokens, "#4e79a7")
	if len(r.Funnel) > 0 {
		var items []barItem
		for _, s := range r.Funnel {
			items = append(items, barItem{Label: s.Name, Value: float64(s.Out), Text: fmt.Sprintf("%d of %d", s.Out, s.In)})
		}
		v.Funnel = hBars(items, "#59a14f")
	}
	if len(r.Failures) > 0 {
		var items []barItem
		for _, f := range r.Failures {
			items = append(items, barItem{Label: f.Reason, Value: float64(f.Count), Text: fmt.Sprint(f.Count)})
		}
		v.Failures = hBars(items, "#e15759")
	}
	return v
}

func rateText(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100**p)
}

func turnValues(b TurnBuckets) []float64 {
	return []float64{float64(b.UpTo3), float64(b.From4), float64(b.From7), float64(b.From10)}
}

type barItem struct {
	Label string
	Value float64
	Text  string
}

type stackRow struct {
	Label  string
	Values []float64
}

const (
	chartLabelW = 150
	chartBarW   = 420
	chartRowH   = 24
)

// hBars draws one horizontal bar per item, scaled to the largest value.
func hBars(items []barItem, color string) template.HTML {
	var top float64
	for _, it := range items {
		top = max(top, it.Value)
	}
	var b strings.Builder
	h := len(items)*chartRowH + 8
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img">`, chartLabelW+chartBarW+90, h)
	for i, it := range items {
		y := 4 + i*chartRowH
		w := 0.0
		if top > 0 {
			w = it.Value / top * chartBarW
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" font-size="12">%s</text>`, chartLabelW-6, y+15, template.HTMLEscapeString(it.Label))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %s</title></rect>`, chartLabelW, y+2, w, chartRowH-6, color, template.HTMLEscapeString(it.Label), template.HTMLEscapeString(it.Text))
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" font-size="12">%s</text>`, float64(chartLabelW)+w+6, y+15, template.HTMLEscapeString(it.Text))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

var stackColors = []string{"#4e79a7", "#f28e2b", "#59a14f", "#e15759"}

// stackedBars draws one 100% bar per row, split into its values' shares.
func stackedBars(rows []stackRow, legend []string) template.HTML {
	var b strings.Builder
	h := (len(rows)+1)*chartRowH + 8
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" role="img">`, chartLabelW+chartBarW+20, h)
	for i, name := range legend {
		x := chartLabelW + i*90
		fmt.Fprintf(&b, `<rect x="%d" y="6" width="12" height="12" fill="%s"/><text x="%d" y="17" font-size="12">%s turns</text>`, x, stackColors[i%len(stackColors)], x+16, template.HTMLEscapeString(name))
	}
	for i, r := range rows {
		y := 4 + (i+1)*chartRowH
		var total float64
		for _, v := range r.Values {
			total += v
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" font-size="12">%s</text>`, chartLabelW-6, y+15, template.HTMLEscapeString(r.Label))
		x := float64(chartLabelW)
		for j, v := range r.Values {
			if total == 0 || v == 0 {
				continue
			}
			w := v / total * chartBarW
			fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"><title>%s, %s turns: %.0f (%.1f%%)</title></rect>`,
				x, y+2, w, chartRowH-6, stackColors[j%len(stackColors)], template.HTMLEscapeString(r.Label), template.HTMLEscapeString(legend[j]), v, 100*v/total)
			x += w
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

var reportPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"mul100": func(p float64) float64 { return 100 * p },
	"table":  func(head string, rows []htmlRow) htmlTable { return htmlTable{head, rows} },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>synth stats{{range .Reports}} · {{.R.Name}}{{end}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border-bottom: 1px solid #ddd; padding: 0.3em 0.8em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.total td { font-weight: bold; }
.note { color: #666; font-size: 0.9em; }
</style>
</head>
<body>
<h1>Dataset statistics</h1>
{{define "table"}}<table>
<tr><th>{{.Head}}</th><th>trajectories</th><th>turns &le;3</th><th>4-6</th><th>7-9</th><th>&ge;10</th><th>avg turns</th><th>avg tokens</th><th>pass rate</th></tr>
{{range .Rows}}<tr{{if eq .Name "total"}} class="total"{{end}}><td>{{.Name}}</td><td>{{.T.Trajectories}}</td><td>{{.T.Turns.UpTo3}}</td><td>{{.T.Turns.From4}}</td><td>{{.T.Turns.From7}}</td><td>{{.T.Turns.From10}}</td><td>{{printf "%.1f" .T.AvgTurns}}</td><td>{{printf "%.0f" .T.AvgTokens}}</td><td>{{.Rate}}</td></tr>
{{end}}</table>{{end}}
{{with .Compare}}
<h2>Comparison</h2>
{{template "table" (table "dataset" .Rows)}}
<h3>Turns per trajectory</h3>
{{.Turns}}
<h3>Average tokens per trajectory</h3>
{{.Tokens}}
{{end}}
{{range .Reports}}
<h2>{{.R.Name}}</h2>
<p class="note">{{.R.Path}} · {{len .R.Files}} file(s) · tokens: {{.R.Stats.TokensCounted}}</p>
{{template "table" (table "category" .Rows)}}
<h3>Turns per trajectory</h3>
{{.Turns}}
<h3>Average tokens per trajectory</h3>
{{.Tokens}}
{{if .Funnel}}
<h3>Filter funnel</h3>
<p class="note">Items left after each stage{{with .R.RolloutPassRate}}; rollout pass rate {{printf "%.1f%%" (mul100 .)}} (infrastructure failures excluded){{end}}.</p>
{{.Funnel}}
<table>
<tr><th>stage</th><th>in</th><th>out</th><th>retries</th><th>reasons</th></tr>
{{range .R.Funnel}}<tr><td>{{.Name}}</td><td>{{.In}}</td><td>{{.Out}}</td><td>{{.Retries}}</td><td style="text-align:left">{{range $i, $r := .Reasons}}{{if $i}}, {{end}}{{$r.Reason}} {{$r.Count}}{{if $r.Infra}} (infrastructure){{end}}{{end}}</td></tr>
{{end}}</table>
{{end}}{{if .Failures}}
<h3>Why rollouts failed verification</h3>
{{.Failures}}
{{end}}{{end}}
</body>
</html>
`))

type htmlTable struct {
	Head string
	Rows []htmlRow
}
