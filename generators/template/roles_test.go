package template

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"synth/checks/checkstest"

	"synth/generators"
	"synth/pyenv/pyenvtest"
	"synth/schemas"
)

// realShaped are tables shaped like public datasets: an innings log with a
// batting position, sea-ice extents in a unit, air measurements, a game log
// with game numbers, retail rows with a retailer ID, disaster counts with
// an "All natural disasters" row, a graph's edges, a tree of nodes with
// their parents, and a CSV whose header line is a record.
// want gives each column its true role; a column left out has no opinion.
var realShaped = []struct {
	name string
	body string
	want map[string]role
}{
	{"innings.csv", inningsCSV(), map[string]role{
		"Runs": roleExtensive, "Mins": roleExtensive, "BF": roleExtensive, "4s": roleExtensive, "6s": roleExtensive,
		"SR": roleIntensive, "Pos": roleOrdinal, "Dismissal": roleCategory, "Inns": roleOrdinal, "Opposition": roleCategory,
		"Start Date": roleDate, "Match No": roleOrdinal,
	}},
	{"seaice.csv", seaIceCSV(), map[string]role{
		"Year": roleYear, "Month": roleOrdinal, "Extent (10^6 sq km)": roleIntensive, "Missing (10^6 sq km)": roleIntensive,
		"Source Data": roleCategory, "Date": roleDate, "Hemisphere": roleCategory,
	}},
	{"air.csv", airCSV(), map[string]role{
		"date": roleDate, "CO2 (ppm)": roleIntensive, "wind_kmh": roleIntensive, "Temperature (C)": roleIntensive,
		"station": roleCategory, "rainfall_mm": roleIntensive,
	}},
	{"games.csv", gamesCSV(), map[string]role{
		"Game number": roleOrdinal, "Network": roleCategory, "Viewers (millions)": roleExtensive, "Rating": roleIntensive,
		"Season": roleYear, "Air date": roleDate,
	}},
	{"retail.csv", retailCSV(), map[string]role{
		"Retailer ID": roleID, "Region": roleCategory, "Units Sold": roleExtensive, "Price per Unit": roleIntensive,
		"Total Sales": roleExtensive, "Operating Margin": roleIntensive, "Invoice Date": roleDate, "Sales Method": roleCategory,
		"Zip": roleID, "Row": roleOrdinal,
	}},
	{"disasters.csv", disastersCSV(), map[string]role{
		"Entity": roleCategory, "Year": roleYear, "Deaths": roleExtensive, "Number of events": roleExtensive,
		"Kind": roleCategory,
	}},
	{"hr.csv", hrCSV(), map[string]role{
		"EmpID": roleID, "Department": roleCategory, "JobSatisfaction": roleOrdinal, "JobLevel": roleOrdinal,
		"YearsAtCompany": roleIntensive, "MonthlyIncome": roleExtensive, "created_date": roleOrdinal,
		"No. of Episode (Overall)": roleOrdinal, "Number of trainings": roleExtensive, "HourlyRate": roleIntensive,
		"EmployeeCount": roleCategory,
	}},
	{"places.csv", placesCSV(), map[string]role{
		"state": roleCategory, "year": roleYear, "county_bucket": roleCategory, "urate": roleIntensive,
		"Xlongitude": roleCoordinate, "Ylatitude": roleCoordinate, "lat": roleCoordinate, "price": roleIntensive,
		"sales": roleExtensive, "county": roleCategory, "county_rain": roleIntensive, "tract_ce": roleID,
		"county_income": roleIntensive,
	}},
	{"edges.csv", genRows("source,target,value,weight", 40, func(i int) string {
		return fmt.Sprintf("%d,%d,%d,%d.%d", i%11, (i*7)%13, 1+i%6, 10+i%9, i%10)
	}), map[string]role{"source": roleID, "target": roleID, "weight": roleIntensive}},
	{"tree.csv", genRows("id,name,parent,size", 30, func(i int) string {
		return fmt.Sprintf("%d,node%d,%d,%d", i+1, i, i/3, 1000+i*37%500)
	}), map[string]role{"parent": roleID, "size": roleIntensive}},
	{"agencies.csv", genRows("ParentAgencyNum,agency_num,Número do documento,amount", 30, func(i int) string {
		return fmt.Sprintf("%d,%d,%d,%d", 100+i%7, 2000+i, 101150+i*13, 50+i*17%90)
	}), map[string]role{"ParentAgencyNum": roleID, "agency_num": roleID, "Número do documento": roleID, "amount": roleExtensive}},
	{"arrests.csv", genRows("BKG_NUM,ARR_DIV,RPT_BEAT,AGE,DOB", 30, func(i int) string {
		return fmt.Sprintf("%d,%d,%d,%d,%d", 4894831+i, 4204+i%9*7, 1200+i%5, 18+i*7%50, 28000+i*97)
	}), map[string]role{"ARR_DIV": roleCategory, "RPT_BEAT": roleCategory, "AGE": roleIntensive, "DOB": roleOrdinal}},
	{"releases.csv", genRows("REL_LOC,HGT,WGT", 30, func(i int) string {
		return fmt.Sprintf("%d,%d,%d", 4279+i%6*13, []int{505, 511, 600, 507, 510, 602, 204}[i%7], 120+i*7%90)
	}), map[string]role{"REL_LOC": roleCategory, "HGT": roleOrdinal, "WGT": roleIntensive}},
	{"registry.csv", genRows("company,okpo,hint,dirCat,staff", 30, func(i int) string {
		hint := 371920 + i%12*53
		if i == 29 {
			hint = 8890423 // a stray id of seven digits
		}
		return fmt.Sprintf("C%d,%d,%d,%d,%d", i, 60000000+i*2750311, hint, i%8*45, 10+i*7%40)
	}), map[string]role{"okpo": roleID, "hint": roleID, "dirCat": roleCategory, "staff": roleIntensive}},
	{"noheader.csv", noHeaderCSV(), nil},
}

// genRows fills n rows from a function of the row number.
func genRows(head string, n int, row func(i int) string) string {
	var b strings.Builder
	b.WriteString(head + "\n")
	for i := range n {
		b.WriteString(row(i) + "\n")
	}
	return b.String()
}

func inningsCSV() string {
	dis := []string{"caught", "bowled", "lbw", "not out", "run out"}
	opp := []string{"v Australia", "v England", "v Pakistan", "v Sri Lanka"}
	return genRows("Match No,Runs,Mins,BF,4s,6s,SR,Pos,Dismissal,Inns,Opposition,Start Date", 60, func(i int) string {
		runs := (i*37 + 11) % 130
		bf := runs*100/(70+i%60) + 1
		return fmt.Sprintf("%d,%d,%d,%d,%d,%d,%.2f,%d,%s,%d,%s,2012-%02d-%02d", i+1, runs, runs+i%40, bf, runs/9, runs/40,
			float64(runs)*100/float64(bf), 1+(i*5)%7, dis[i%5], 1+i%2, opp[(i/3)%4], 1+i%12, 1+i%28)
	})
}

func seaIceCSV() string {
	return genRows("Year,Month,Day,Extent (10^6 sq km),Missing (10^6 sq km),Source Data,Date,Hemisphere", 72, func(i int) string {
		return fmt.Sprintf("%d,%d,%d,%.3f,%.3f,nsidc_%s,%d-%02d-%02d,%s", 1990+i/12, 1+i%12, 1+i%27, 10+float64((i*7)%50)/10, float64(i%3)/1000,
			[]string{"a", "b"}[i%2], 1990+i/12, 1+i%12, 1+i%27, []string{"north", "south"}[i%2])
	})
}

func airCSV() string {
	return genRows("date,station,CO2 (ppm),wind_kmh,Temperature (C),rainfall_mm", 90, func(i int) string {
		rain := fmt.Sprintf("%.1f", float64((i*11)%90)/10)
		if i%9 == 4 {
			rain = "" // gaps for table.fillna
		}
		return fmt.Sprintf("2021-%02d-%02d,%s,%.2f,%.1f,%.1f,%s", 1+i%12, 1+i%28, []string{"north", "south", "east"}[i%3],
			410+float64((i*13)%70)/10, float64((i*17)%400)/10, -5+float64((i*29)%350)/10, rain)
	})
}

func gamesCSV() string {
	return genRows("Game number,Network,Viewers (millions),Rating,Season,Air date", 48, func(i int) string {
		return fmt.Sprintf("%d,%s,%.1f,%.1f,%d,20%02d-%02d-%02d", i+1, []string{"ABC", "NBC", "CBS", "FOX"}[(i*7)%4],
			5+float64((i*31)%200)/10, 3+float64((i*7)%60)/10, 2000+i/8, i/8, 1+i%12, 1+i%28)
	})
}

func retailCSV() string {
	return genRows("Row,Retailer ID,Zip,Region,Units Sold,Price per Unit,Total Sales,Operating Margin,Invoice Date,Sales Method", 80, func(i int) string {
		units := 100 + (i*53)%700
		price := 20 + float64((i*7)%40)
		return fmt.Sprintf("%d,%d,0%d,%s,%d,%.2f,%.2f,%.2f,2020-%02d-%02d,%s", i+1, 1185732+(i*7919)%5000, 2100+(i*3)%700,
			[]string{"West", "East", "South", "Midwest"}[(i*3)%4], units, price, float64(units)*price, 0.2+float64(i%30)/100,
			1+i%12, 1+i%28, []string{"Online", "Outlet", "In-store"}[i%3])
	})
}

func disastersCSV() string {
	kinds := []string{"Drought", "Earthquake", "Flood", "Storm", "Wildfire"}
	var rows []string
	for y := range 12 {
		all := 0
		for k, kind := range kinds {
			d := (y*97 + k*311) % 5000
			if y == 4 && kind == "Earthquake" {
				d = 227898 // an outlier for table.iqr
			}
			all += d
			rows = append(rows, fmt.Sprintf("%s,%d,%d,%d,%s", kind, 2000+y, d, 1+(y+k)%9, []string{"climate", "geo"}[k%2]))
		}
		if y%4 == 0 {
			rows = append(rows, fmt.Sprintf("All natural disasters,%d,%d,%d,all", 2000+y, all, 40))
		}
	}
	return "Entity,Year,Deaths,Number of events,Kind\n" + strings.Join(rows, "\n") + "\n"
}

func hrCSV() string {
	return genRows("EmpID,Department,JobSatisfaction,JobLevel,YearsAtCompany,MonthlyIncome,created_date,No. of Episode (Overall),Number of trainings,HourlyRate,EmployeeCount", 70, func(i int) string {
		return fmt.Sprintf("RM%03d,%s,%d,%d,%d,%d,%d,%d,%d,%d,1", i+1, []string{"Sales", "R&D", "HR"}[(i*5)%3], 1+(i*7)%4, 1+(i*3)%5,
			(i*11)%36, 2000+(i*397)%9000, 1+(i*13)%31, 100+i*3+(i%2), (i*7)%6, 30+(i*17)%70)
	})
}

// placesCSV is a panel of places, as Cigar.csv and police_killings.csv
// are: states and counties coded as numbers, a bucket code, coordinates,
// a rate, a price, sales and the income of each row's county.
func placesCSV() string {
	return genRows("state,county,year,county_bucket,urate,Xlongitude,Ylatitude,lat,price,sales,county_rain,tract_ce,county_income", 60, func(i int) string {
		return fmt.Sprintf("%d,%d,%d,%d,%.3f,%.4f,%.4f,%.4f,%.1f,%.1f,%.1f,%d,%d", 1+(i*7)%48, 1+(i*5)%30, 1970+i%20, 1+i%5, 0.03+float64(i%9)/100,
			-120+float64(i*13%40)/3, 30+float64(i*7%20)/3, 40+float64(i%11)/7, 20+float64(i*3%17)/2, 80+float64(i*29%50), 300+float64(i*17%90), 3900+i*137%5000,
			38000+(i*977)%40000)
	})
}

// noHeaderCSV is a CSV without a header: its first record becomes the
// names ("7065", "3.2", ...) to a reader that expects one.
func noHeaderCSV() string {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "%d,%.1f,%s,%d\n", 7065+i*13, 3.2+float64(i%9), []string{"red", "green", "blue"}[i%3], 100+(i*37)%90)
	}
	return b.String()
}

// writeShaped writes the real-shaped tables to dir as generator inputs.
func writeShaped(t *testing.T, dir string) []generators.Input {
	t.Helper()
	var ins []generators.Input
	for _, f := range realShaped {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, generators.Input{File: schemas.File{ID: f.name, Name: f.name, Type: "csv"}, Path: p})
	}
	return ins
}

func TestRoleProfile(t *testing.T) {
	dir := t.TempDir()
	writeShaped(t, dir)
	for _, f := range realShaped {
		if f.want == nil {
			continue
		}
		t.Run(f.name, func(t *testing.T) {
			tab, err := readTable(filepath.Join(dir, f.name), "csv")
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]role{}
			for _, c := range tab.columns() {
				got[c.name] = c.role
			}
			for name, want := range f.want {
				if got[name] != want {
					t.Errorf("%s is %s, want %s", name, got[name], want)
				}
			}
		})
	}
}

func TestUnitOf(t *testing.T) {
	for name, want := range map[string]string{
		"Extent (10^6 sq km)": "10^6 sq km", "CO2 (ppm)": "ppm", "wind_kmh": "kmh", "Temperature [°C]": "°C",
		"Sales": "", "rainfall_mm": "mm",
	} {
		if got := unitOf(name); got != want {
			t.Errorf("unitOf(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestHeaderless(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       bool
	}{
		{"record as header", noHeaderCSV(), true},
		{"dates as header", "2020-01-01,5\n2020-01-02,6\n2020-01-03,7\n", true},
		{"a missing value in the first record", "1,null,0,0\n2,0,0,null\n3,null,,\n4,null,0,null\n5,0,0,\n6,0,0,\n7,null,0,null\n", true},
		{"named", "id,value,colour\n1,2.5,red\n2,3.5,blue\n", false},
		{"wide years", "Country,2019,2020,2021\nFrance,1.5,2.5,3.5\nSpain,2,3,4\n", false},
		{"numbered steps", "team,0,1,2,3\nHawks,0.50,0.51,0.52,0.53\nNets,0.50,0.49,0.51,0.50\nBulls,0.48,0.47,0.49,0.50\n", false},
		{"quoted names", "name's \"%d\",value\n\"q'\",1\nr,2\n", false},
		{"repeated names", "kind,a,a,b\ncat,1.5,2.5,3.5\ndog,5.5,6.5,7.5\ncat,1.5,2.5,3.5\ndog,2.5,3.5,4.5\ncat,1.5,2.5,3.5\ndog,2.5,3.5,4.5\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "f.csv")
			if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			tab, err := readTable(p, "csv")
			if err != nil {
				t.Fatal(err)
			}
			if got := tab.headerless(); got != tc.want {
				t.Errorf("headerless = %v, want %v", got, tc.want)
			}
			if (tc.want || repeatsName(tab.header)) && len(tab.measures())+len(tab.categories())+len(tab.dates()) > 0 {
				t.Error("a headerless table offers columns to pick")
			}
		})
	}
}

func TestAggregateRows(t *testing.T) {
	p := filepath.Join(t.TempDir(), "d.csv")
	if err := os.WriteFile(p, []byte(disastersCSV()), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := readTable(p, "csv")
	if err != nil {
		t.Fatal(err)
	}
	agg := tab.aggregateRows()
	if got := agg[0]; !slices.Equal(got, []string{"All natural disasters"}) {
		t.Errorf("Entity's aggregate labels are %q", got)
	}
	body := tab.withoutAggregates()
	if len(body.rows) != len(tab.rows)-3 {
		t.Errorf("%d rows left of %d, want 3 fewer", len(body.rows), len(tab.rows))
	}
	for _, r := range body.rows {
		if r[0] == "All natural disasters" {
			t.Fatal("an aggregate row was kept")
		}
	}
	titles := filepath.Join(t.TempDir(), "titles.csv")
	if err := os.WriteFile(titles, []byte(genRows("title,year,gross", 30, func(i int) string {
		title := fmt.Sprintf("Film %d", i)
		if i == 7 {
			title = "All About Eve"
		}
		return fmt.Sprintf("%s,%d,%d", title, 1950+i, 1000+i*37)
	})), 0o644); err != nil {
		t.Fatal(err)
	}
	if tt, err := readTable(titles, "csv"); err != nil || len(tt.aggregateRows()) != 0 {
		t.Errorf("titles starting with All are aggregate rows: %v (%v)", tt.aggregateRows(), err)
	}
	code, en, _ := tab.aggregateFilter("df")
	if !strings.Contains(code, `isin(["All natural disasters"])`) || !strings.Contains(en, "All natural disasters") {
		t.Errorf("filter %q, note %q", code, en)
	}
	// "All ages" and "Worldwide" as ordinary categories of a service
	// directory: their rows are the size of any other.
	services := filepath.Join(t.TempDir(), "services.csv")
	if err := os.WriteFile(services, []byte(genRows("agency,eligibility,area,clients", 30, func(i int) string {
		return fmt.Sprintf("Agency %d,%s,%s,%d", i, []string{"All ages", "Adults", "Seniors", "Youth"}[i%4], []string{"Worldwide", "County", "City"}[i%3], 200+i*13%90)
	})), 0o644); err != nil {
		t.Fatal(err)
	}
	if tt, err := readTable(services, "csv"); err != nil || len(tt.aggregateRows()) != 0 {
		t.Errorf("categories named All ages and Worldwide are aggregate rows: %v (%v)", tt.aggregateRows(), err)
	}
	// A class named Sum in a toolkit's tree of classes and their sizes.
	classes := filepath.Join(t.TempDir(), "classes.csv")
	if err := os.WriteFile(classes, []byte(genRows("name,size", 30, func(i int) string {
		return fmt.Sprintf("%s,%d", []string{"Sum", fmt.Sprintf("Class%d", i)}[min(1, i%29)], 1000+i*37%500)
	})), 0o644); err != nil {
		t.Fatal(err)
	}
	if tt, err := readTable(classes, "csv"); err != nil || len(tt.aggregateRows()) != 0 {
		t.Errorf("a class named Sum is an aggregate row: %v (%v)", tt.aggregateRows(), err)
	}
}

// misuse lists what a task's reference does with columns against their
// roles: an aggregate, spread, model feature or ranking of an identifier,
// an ordinal or a year; a sum of an intensive measure; a whole-frame
// summary over such columns; aggregate rows left in; an unreadable chart.
// roles maps the file's column names to their roles; totals are the
// file's aggregate labels.
func misuse(task *schemas.Task, roles map[string]role, totals []string) []string {
	if task.Reference == nil || task.Category != schemas.CategoryData {
		return nil
	}
	var code strings.Builder
	for _, s := range task.Reference.Steps {
		code.WriteString(s.Code + "\n")
	}
	src := code.String()
	tmpl := strings.TrimPrefix(strings.Split(task.Generator, "@")[0], "template:")
	var out []string
	for name, r := range roles {
		q := regexp.QuoteMeta(strconv.Quote(name))
		if !strings.Contains(src, strconv.Quote(name)) {
			continue
		}
		if r == roleIntensive && (regexp.MustCompile(`\[`+q+`\]\.sum\(\)`).MatchString(src) ||
			regexp.MustCompile(`values=`+q+`, aggfunc='sum'`).MatchString(src)) {
			out = append(out, fmt.Sprintf("%s sums the intensive %s", tmpl, name))
		}
		if r != roleID && r != roleOrdinal && r != roleYear && r != roleCoordinate {
			continue
		}
		// Drop the places where a key belongs: group, pivot and join keys,
		// filters on a value, date parsing, distinct counts.
		rest := regexp.MustCompile(`groupby\(`+q+`|index=`+q+`|columns=`+q+`|on=`+q+`|df\[`+q+`\] ==|df\[`+q+`\]\.(value_counts|nunique|isin|astype)|to_datetime\(df\[`+q+`\]|\[`+q+`\]\.isin`).ReplaceAllString(src, "")
		if tmpl == "table.nunique" || tmpl == "table.topgroup" || tmpl == "chart.pie" || tmpl == "table.join" {
			continue
		}
		if strings.Contains(rest, strconv.Quote(name)) {
			out = append(out, fmt.Sprintf("%s uses the %s %s as a value", tmpl, r, name))
		}
	}
	keys := false
	for _, r := range roles {
		keys = keys || r == roleID || r == roleOrdinal || r == roleYear
	}
	if keys && (strings.Contains(src, "select_dtypes('number')") || strings.Contains(src, "df.describe()")) {
		out = append(out, tmpl+" summarises every number column, identifiers and ranks included")
	}
	if len(totals) > 0 && !strings.Contains(src, ".isin([") && aggregating(tmpl) {
		out = append(out, fmt.Sprintf("%s keeps the aggregate rows %q", tmpl, totals))
	}
	if m := regexp.MustCompile(`corr = df\[\[([^\]]*)\]\]`).FindStringSubmatch(src); m != nil && strings.Count(m[1], ",")+1 > maxAnnotate {
		out = append(out, fmt.Sprintf("%s annotates a %d-column heatmap", tmpl, strings.Count(m[1], ",")+1))
	}
	return out
}

// aggregating are the templates whose results a total row would distort.
func aggregating(tmpl string) bool {
	return slices.Contains([]string{"table.stat", "table.topgroup", "table.groupby", "table.pivot", "table.monthly", "table.topn",
		"table.sort", "table.describe", "table.corr", "table.iqr", "chart.bar", "chart.pie", "chart.box", "chart.radar", "chart.line",
		"chart.hist", "chart.scatter", "chart.heatmap"}, tmpl)
}

// TestNoQueryMisusesARole writes every template's tasks on the real-shaped
// tables, over several seeds, and holds each reference to the true roles
// of the columns: no aggregate, spread, ranking or model feature of an
// identifier, ordinal or year, no sum of an intensive measure, aggregate
// rows left out, and no task on the columns of a headerless CSV.
func TestNoQueryMisusesARole(t *testing.T) {
	dir := t.TempDir()
	ins := writeShaped(t, dir)
	truth := map[string]map[string]role{}
	totals := map[string][]string{}
	for _, f := range realShaped {
		truth[f.name] = f.want
	}
	totals["disasters.csv"] = []string{"All natural disasters"}
	n, picked := 0, map[string]bool{}
	for seed := int64(1); seed <= 4; seed++ {
		tasks, err := New(Options{Seed: seed, Langs: []string{"en"}}).Generate(context.Background(), ins)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tasks {
			task := &tasks[i]
			if len(task.Files) != 1 {
				continue
			}
			f := task.Files[0].Name
			tmpl := strings.TrimPrefix(strings.Split(task.Generator, "@")[0], "template:")
			n++
			picked[tmpl] = true
			if f == "noheader.csv" && regexp.MustCompile(`\b(7065|3\.2|red|100)\b`).MatchString(task.Query) {
				t.Errorf("%s on a headerless CSV names its first record as columns: %q", tmpl, task.Query)
			}
			for _, m := range misuse(task, truth[f], totals[f]) {
				t.Errorf("%s on %s: %s\n  query: %s", task.ID, f, m, task.Query)
			}
		}
	}
	// The tables must still get the column-picking tasks, or the test
	// proves nothing.
	for _, want := range []string{"table.stat", "table.groupby", "chart.bar", "chart.box", "table.monthly", "ml.cluster", "chart.heatmap", "table.topn"} {
		if !picked[want] {
			t.Errorf("no %s task on the real-shaped tables", want)
		}
	}
	t.Logf("%d tasks checked", n)
}

// TestRoleTasksProve proves, in the real sandbox, one task of each template
// whose choice of columns or aggregate changed with roles, on the
// real-shaped tables: the reference passes its checks (a mean per month,
// a bar of averages, a heatmap of named measures, Pearson's r in a scatter
// answer, aggregate rows dropped by the reference), and the mutant and the
// adversaries fail.
func TestRoleTasksProve(t *testing.T) {
	if testing.Short() {
		t.Skip("runs tasks in the sandbox")
	}
	pyenvtest.Python(t)
	b := checkstest.Backend(t, 2)
	dir := t.TempDir()
	ins := writeShaped(t, dir)
	paths := inputPaths(ins)
	want := []string{"table.monthly", "chart.bar", "chart.heatmap", "chart.scatter", "table.describe", "table.groupby", "table.iqr", "chart.pie", "table.stat", "table.topn", "table.fillna"}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: want}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	// One task per template, on the table with aggregate rows when it has one.
	pick := map[string]*schemas.Task{}
	for i := range tasks {
		tmpl := strings.TrimPrefix(strings.Split(tasks[i].Generator, "@")[0], "template:")
		if p := pick[tmpl]; p == nil || (tasks[i].Files[0].Name == "disasters.csv" && p.Files[0].Name != "disasters.csv") ||
			(tmpl == "table.monthly" && tasks[i].Files[0].Name == "air.csv") {
			pick[tmpl] = &tasks[i]
		}
	}
	for _, tmpl := range want {
		task := pick[tmpl]
		if task == nil {
			t.Errorf("no %s task on the real-shaped tables", tmpl)
			continue
		}
		t.Run(tmpl, func(t *testing.T) {
			p, err := ProveTask(context.Background(), b, task, paths)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s on %s: %s", tmpl, task.Files[0].Name, task.Query)
			if reason, why := p.Reason(); reason != "" {
				t.Errorf("%s on %s: %s: %s\n  query: %s", task.ID, task.Files[0].Name, reason, why, task.Query)
			}
		})
	}
}

// TestChartCaps: a wide table gets an annotated heatmap of at most 10
// columns, and a category of 11 values no pie.
// TestDecimalCommaIsNotMoney: "45,06" is a decimal comma, not a
// thousands separator, so no template sums it as 4506.
func TestDecimalCommaIsNotMoney(t *testing.T) {
	p := filepath.Join(t.TempDir(), "orders.tsv")
	body := genRows("Region\tSales\tProfit", 30, func(i int) string {
		return fmt.Sprintf("%s\t%d,%02d\t$%d,%03d", []string{"APAC", "EU"}[i%2], 10+i, i, 1+i%3, i*7)
	})
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := readTable(p, "tsv")
	if err != nil {
		t.Fatal(err)
	}
	if tab.moneyText(1) {
		t.Error("Sales (45,06) is read as an amount with thousands separators")
	}
	if !tab.moneyText(2) {
		t.Error("Profit ($1,007) is not read as an amount")
	}
	if c, _, _, ok := moneyCol(tab); !ok || c.name != "Profit" {
		t.Errorf("moneyCol = %q, %v; want Profit", c.name, ok)
	}
}

func TestChartCaps(t *testing.T) {
	head := "region"
	for i := range 14 {
		head += fmt.Sprintf(",rate_%d", i)
	}
	body := genRows(head, 66, func(i int) string {
		row := fmt.Sprintf("r%d", i%11)
		for j := range 14 {
			row += fmt.Sprintf(",%.2f", float64((i*(j+3)*7)%97)/10)
		}
		return row
	})
	p := filepath.Join(t.TempDir(), "wide.csv")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ins := []generators.Input{{File: schemas.File{ID: "wide", Name: "wide.csv", Type: "csv"}, Path: p}}
	heat := 0
	for seed := int64(1); seed <= 3; seed++ {
		tasks, err := New(Options{Seed: seed, Langs: []string{"en"}, Include: []string{"chart.heatmap", "chart.pie"}}).Generate(context.Background(), ins)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range tasks {
			if strings.Contains(task.Generator, "chart.pie") {
				t.Errorf("a pie of 11 slices: %s", task.Query)
			}
			if !strings.Contains(task.Generator, "chart.heatmap") {
				continue
			}
			heat++
			m := regexp.MustCompile(`corr = df\[\[([^\]]*)\]\]`).FindStringSubmatch(task.Reference.Steps[1].Code)
			if m == nil {
				t.Fatalf("the heatmap names no columns:\n%s", task.Reference.Steps[1].Code)
			}
			if n := strings.Count(m[1], ",") + 1; n > 10 {
				t.Errorf("a heatmap of %d columns is annotated", n)
			}
		}
	}
	if heat == 0 {
		t.Error("no heatmap on a table of 14 measures")
	}
}

// TestBlankNameNotRequired: a table written with its index has a blank
// first name, which pandas calls "Unnamed: 0"; no check requires a column
// named "" in the output, and no template picks the index.
func TestBlankNameNotRequired(t *testing.T) {
	p := filepath.Join(t.TempDir(), "exercise.csv")
	body := genRows(",id,diet,pulse,time,kind", 40, func(i int) string {
		return fmt.Sprintf("%d,%d,%s,%d,%d min,%s", i, 1+i/3, []string{"low fat", "no fat"}[i%2], 80+(i*7)%40, []int{1, 15, 30}[i%3], []string{"rest", "walking", "running"}[(i/3)%3])
	})
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ins := []generators.Input{{File: schemas.File{ID: "ex", Name: "exercise.csv", Type: "csv"}, Path: p}}
	tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{"table.convert", "table.dedup", "table.dropna", "table.stat", "table.topn", "chart.hist"}}).Generate(context.Background(), ins)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, task := range tasks {
		for _, c := range task.Checks {
			if slices.Contains(c.ColumnsInclude, "") {
				t.Errorf("%s requires a column named \"\"", task.Generator)
			}
		}
		if strings.Contains(task.Generator, "table.convert") {
			n++
		}
		for _, s := range task.Reference.Steps {
			if strings.Contains(s.Code, `df[""]`) {
				t.Errorf("%s picks the blank-named index", task.Generator)
			}
		}
	}
	if n == 0 {
		t.Error("no table.convert task")
	}
}

// TestCodesWithLeadingZerosAreNotMeasures: a column of digit codes with a
// leading zero ("04217": a station, a postcode) whose name says nothing is
// an identifier, and no task sums, averages or plots it as a measure.
func TestCodesWithLeadingZerosAreNotMeasures(t *testing.T) {
	dir := t.TempDir()
	body := genRows("Temperature,Station,Rainfall", 60, func(i int) string {
		return fmt.Sprintf("%.1f,0%d,%.1f", 5+float64((i*13)%200)/10, 4100+(i%9)*37, float64((i*7)%90)/3)
	})
	p := filepath.Join(dir, "stations.csv")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := readTable(p, "csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tab.columns() {
		if c.name == "Station" && c.role != roleID {
			t.Errorf("Station (codes such as 04137) is %s, want %s", c.role, roleID)
		}
	}
	in := []generators.Input{{File: schemas.File{ID: "stations.csv", Name: "stations.csv", Type: "csv"}, Path: p}}
	truth := map[string]role{"Station": roleID}
	n := 0
	for seed := int64(1); seed <= 3; seed++ {
		tasks, err := New(Options{Seed: seed, Langs: []string{"en"}}).Generate(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for i := range tasks {
			n++
			for _, m := range misuse(&tasks[i], truth, nil) {
				t.Errorf("%s: %s\n  query: %s", tasks[i].ID, m, tasks[i].Query)
			}
		}
	}
	if n == 0 {
		t.Fatal("no task on the stations table: the test proves nothing")
	}
}

// TestYearsByValue: a column whose name says nothing is a year when every
// value is a whole number from 1800 to 2100, and only then: not with a
// fraction, not past 2100, not before 1800.
func TestYearsByValue(t *testing.T) {
	dir := t.TempDir()
	body := genRows("Price,Built,Late,Early,Half", 40, func(i int) string {
		return fmt.Sprintf("%.2f,%d,%d,%d,%.1f", 100+float64((i*37)%500)/3, 1950+(i*7)%60, 2150+(i*7)%60, 1700+(i*7)%60, 1950.5+float64((i*7)%60))
	})
	p := filepath.Join(dir, "houses.csv")
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tab, err := readTable(p, "csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tab.columns() {
		if isYear := c.role == roleYear; isYear != (c.name == "Built") {
			t.Errorf("%s is %s", c.name, c.role)
		}
	}
}
