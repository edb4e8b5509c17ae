package template

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Column roles: what a column means, from its name, its unit and its
// values. Templates pick columns by role, so a batting position is never
// summed, an identifier never fed to k-means and a concentration never
// totalled per month.
type role int

const (
	roleText       role = iota // free text
	roleID                     // identifier: a key, a code with leading zeros
	roleOrdinal                // rank, position, index, game number
	roleCategory               // a code or category: few distinct values
	roleYear                   // a calendar year
	roleDate                   // a date
	roleExtensive              // an amount or a count: it sums
	roleIntensive              // a rate, a level, a price, a temperature: it averages
	roleCoordinate             // a latitude, a longitude, an easting: a place, not a measure
)

var roleNames = [...]string{"text", "id", "ordinal", "category", "year", "date", "extensive", "intensive", "coordinate"}

func (r role) String() string { return roleNames[r] }

var (
	// idWords name identifiers and codes.
	idWords = regexp.MustCompile(`(?i)([ _.]fp$|fips|(^|[ _.])tract([ _.]|$)|^id$|^id[ _.]|[ _.]id$|(?-i:[a-z]Id$)|(?-i:[a-z]ID$)|\bid\b|identifier|^uuid|guid|code$|^code|(?-i:[a-z]Num$)|[ _.]num$|^n[uú]mero[ _.]|^nummer|^num[ée]ro[ _.]|\bkey$|[ _.]key$|(?-i:[a-z]Key$)|[ _.]sk$|(?-i:[a-z]SK$)|surrogate|zip|postal|phone|isbn|sku|serial|account|^no\.?$|^nr\.?$|^#$)`)
	// ordinalWords name ranks, positions and sequence numbers.
	ordinalWords = regexp.MustCompile(`(?i)(^dob$|date[ _.]?of[ _.]?birth|birth[ _.]?date|^born$|(^|[ _.])rank|^pos$|^pos[ _.]|(^|[ _.])position|^month$|^mon$|^day$|^dow$|weekday|day[ _.]of[ _.]|^hour$|^hr$|^minute$|quarter|^qtr$|^index$|^idx|^order$|sequence|^seq|^place$|^seed$|^round$|^row$|^lap$|^inns?$|inning|episode|^ep$|^week$|^match$|^game$|(game|match|race|episode|round|lap|row|pick|jersey|shirt|squad|player|seat|room|lot|batch|order|item|record|entry|case|ticket|invoice|customer|student|employee)[ _.]*(no\.?|nr\.?|number|num|#|index|idx)$|^(no|num|number)[ _.]*(of[ _.]+)?(game|match|row|entry|order|episode|season|round|lap|week|day)s?$|(^|[ _.])(day|date|month|hour|minute|week)$)`)
	// yearWords name calendar years.
	yearWords = regexp.MustCompile(`(?i)(^(year|yr\.?|fy|season)$|^year[ _.]|[ _.]year$|[ _.]year[ _.]|fiscal.?year|(?-i:^Year[A-Z][a-z]+$)|(?-i:[a-z]Year$)|[ _.]yr\.?$|^model[ _.]?yr)`)
	// countWords start the name of a count ("Number of cases", "n_items").
	countWords = regexp.MustCompile(`(?i)^(number|num|no|n|count|cnt|nb|total)[ _.]+(of[ _.]+)?[a-z]`)
	// codeWords name what a column of whole numbers codes rather than
	// measures: a state or county number, a bucket, a class.
	codeWords = regexp.MustCompile(`(?i)(^(state|county|country|region|district|province|division|ward|precinct|zone|msa|cbsa|cluster|group|class|type|kind|category|segment|tier|sector|bucket|quintile|decile|quartile)s?$|[ _.](state|county|region|district|zone|cluster|group|class|type|category|segment|tier|bucket|quintile|decile|quartile|div|division|dept|precinct|beat|ward|cat|loc|location)$|(?-i:[a-z]Cat$))`)
	// coordWords name coordinates: a place, never a measure to total,
	// average, correlate or multiply.
	coordWords = regexp.MustCompile(`(?i)(latitude|longitude|(^|[ _.])(lat|lon|lng|long)$|^[xy]?(lat|lon|lng)$|coord|easting|northing)`)
	// placeWords start the name of an attribute of the place a row lies
	// in (county_income, state_population, tract_poverty): every row of
	// that place repeats it, so it is averaged, never totalled.
	placeWords = regexp.MustCompile(`(?i)^(county|state|city|tract|zip|zcta|msa|cbsa|metro|district|neighbou?rhood|borough|province)[ _.][a-z]`)
	// extensiveWords name amounts and counts: totals make sense.
	extensiveWords = regexp.MustCompile(`(?i)(count($|s|[^a-z])|\btips?\b|charges|fares?$|cogs|total|amount|sales|sold|revenue|turnover|quantity|\bqty|units|volume|deaths|death|cases|births|casualt|injur|killed|visitors|passengers|population|budget|gross|spend|expens|profit|income|earning|salary|salaries|cost|payment|paid|donation|export|import|production|consumption|runs|goals|wins|losses|medals|points|votes|views|subscribers|uploads|downloads|clicks|orders|bookings|trips|rides|flights|minutes|mins|hours|balls|bf$|^4s$|^6s$|boundar|wickets|tonnes|barrels|gallons)`)
	// intensiveWords name rates, levels, prices and other averages.
	intensiveWords = regexp.MustCompile(`(?i)((?-i:^Years)|^years[ _.]|tenure|pulse|heart|bpm|^[xyz]$|coord|rate|ratio|percent|pct|%|share|proportion|probab|average|avg|mean|median|per[ _.]|_per_|temp|°|celsius|fahrenheit|humid|pressure|speed|velocity|wind|kmh|mph|km/h|m/s|knot|ppm|ppb|concentration|density|level|extent|index|score|rating|grade|gpa|bmi|age$|^age|price|close|open|high|low|adj|volatil|yield|margin|elevation|altitude|depth|height|width|length|size|weight|area|lat$|latitude|lon$|long$|longitude|ozone|co2|no2|so2|pm2|pm10|aqi|ph$|sr$|strike|economy|efficiency|mpg|magnitude|intensity|frequency|duration|distance|radius|diameter|vote_average|popularity|sentiment|polarity|acidity|sweetness|brix|firmness|ripeness)`)
	// unitPart is a unit written in a name: "Extent (10^6 sq km)", "CO2 [ppm]", "wind_kmh".
	unitPart = regexp.MustCompile(`[(\[]([^()\[\]]{1,24})[)\]]\s*$|[_ ](kmh|mph|ms|kg|km|cm|mm|ppm|ppb|pct|usd|eur|gbp|degc|degf|c|f|h|hr|min|s|sec|m)$`)
	// intensiveUnits are units of rates, levels and averages.
	intensiveUnits = regexp.MustCompile(`(?i)(%|ppm|ppb|°|deg|/|per |kmh|mph|km/h|m/s|knots|hpa|mbar|mmhg|sq|km2|km²|m2|m²|ha|acres|index|ratio|rate|\bc$|\bf$|^c$|^f$|^k$|kelvin|years?$|yrs)`)
	// extensiveUnits are units of amounts.
	extensiveUnits = regexp.MustCompile(`(?i)(usd|eur|gbp|\$|€|£|¥|million|billion|thousand|bn|\bm\b|mn|tonnes|tons|\bt\b|barrels|count|people|persons|units)`)
)

// unnamed matches a blank column name, or the name pandas gives one.
var unnamed = regexp.MustCompile(`^\s*$|^Unnamed: \d+$`)

// unitOf is the unit a column's name states, "" when none.
func unitOf(name string) string {
	m := unitPart.FindStringSubmatch(strings.TrimSpace(name))
	if m == nil {
		return ""
	}
	if m[1] != "" {
		return strings.TrimSpace(m[1])
	}
	return m[2]
}

// profile gives every column of t a role. Names and units decide first;
// the values decide when the name says nothing: a year-like integer is a
// year, a unique monotone integer sequence an index, a code with leading
// zeros an identifier, a few distinct integers a category.
func (t *table) profile(c *column) {
	c.unit = unitOf(c.name)
	nonNull := len(t.rows) - c.nulls
	if unnamed.MatchString(c.name) {
		c.role = roleID // a written-out index: pandas calls it "Unnamed: 0"
		return
	}
	if c.kind != kindNum && c.kind != kindDate && t.moneyText(c.idx) {
		// Amounts written "$1,200": a measure pandas reads as text.
		c.role = roleIntensive
		if sumsByName(c.name) {
			c.role = roleExtensive
		}
		return
	}
	switch c.kind {
	case kindText:
		c.role = roleText
		if nonNull > 0 && idWords.MatchString(c.name) {
			c.role = roleID
		}
		return
	case kindDate:
		c.role = roleDate
		return
	case kindCat:
		c.role = roleCategory // a few strings: "Goalkeeper" is a position but a category
		return
	case kindID:
		c.role = roleID
		if !t.numeric(c.idx) {
			return
		}
	}
	// A number column, or an id-named column of numbers.
	xs := t.floats(c.idx)
	bare := strings.TrimSpace(unitPart.ReplaceAllString(c.name, ""))
	switch {
	case len(xs) == 0:
		c.role = roleText
	case c.distinct <= 1:
		c.role = roleCategory // a constant: nothing to summarise or learn from
	case t.leadingZeros(c.idx):
		c.role = roleID
	case coordWords.MatchString(bare):
		c.role = roleCoordinate
	case c.isInt && codeWords.MatchString(bare):
		c.role = roleCategory // a number standing for a state, a bucket, a class
	case ordinalWords.MatchString(bare):
		c.role = roleOrdinal
	case countWords.MatchString(bare):
		c.role = roleExtensive
	case idWords.MatchString(bare):
		c.role = roleID
	case c.isInt && feetInches(xs):
		c.role = roleOrdinal // a height written 511 for 5 ft 11 in: no mean of it means anything
	case c.isInt && longCodes(xs, nonNull) && !extensiveWords.MatchString(bare) && !intensiveWords.MatchString(bare):
		c.role = roleID // registry numbers and ids: ОКПО 90193989, hint 373463
	case yearWords.MatchString(bare) && c.isInt:
		c.role = roleYear
	case c.isInt && yearLike(xs) && !extensiveWords.MatchString(bare) && !intensiveWords.MatchString(bare):
		c.role = roleYear
	case c.isInt && monotoneSequence(xs):
		c.role = roleOrdinal
	case c.isInt && c.idx == 0 && c.distinct == nonNull && nonNull > 12 && !extensiveWords.MatchString(bare) && !intensiveWords.MatchString(bare):
		c.role = roleID // a unique integer key in the first column
	case c.isInt && c.distinct <= 3 && !extensiveWords.MatchString(bare):
		c.role = roleCategory // flags and classes: 0/1, 1..3
	case c.isInt && smallScale(xs) && !extensiveWords.MatchString(bare):
		c.role = roleOrdinal // a scale or a position: 1..5, 1..11
	case intensiveWords.MatchString(bare) || placeWords.MatchString(bare) || (c.unit != "" && intensiveUnits.MatchString(c.unit)):
		c.role = roleIntensive
	case extensiveWords.MatchString(bare) || (c.unit != "" && extensiveUnits.MatchString(c.unit)):
		c.role = roleExtensive
	default:
		// No sign either way: an average is safe, a total may mean nothing
		// (a pulse, a coordinate), so only a named amount or count sums.
		c.role = roleIntensive
	}
}

// refWords name a column of integers that point at rows (of this table or
// another): a tree's parent, a graph's edge ends.
var refWords = regexp.MustCompile(`(?i)^(parent|child|source|target|src|dst|from|to|node|origin|destination|predecessor|successor|ancestor|root)([ _.]?(id|node|index|idx))?$`)

// references makes keys of the integer columns named as edge ends or a
// parent (refWords): their numbers point at rows (a tree's parent id, a
// graph's source and target nodes) rather than measure anything, so a
// correlation of a parent with a size, or a sum of node numbers, means
// nothing. (A value-based rule, every value found in a unique key column,
// would take any small count in a table numbered 1..n for a reference.)
func (t *table) references(cols []column) {
	for i := range cols {
		c := &cols[i]
		if c.isNum && c.isInt && c.role != roleID && refWords.MatchString(strings.TrimSpace(c.name)) {
			c.role = roleID
		}
	}
}

// feetInches reports heights written as feet and inches run together (505
// for 5 ft 5 in, as police records keep them): ten or more values from 100
// to 899 whose last two digits never pass 11, several of them above 9.
func feetInches(xs []float64) bool {
	if len(xs) < 10 {
		return false
	}
	big := 0
	for _, x := range xs {
		if x < 100 || x > 899 || int(x)%100 > 11 {
			return false
		}
		if int(x)%100 >= 10 {
			big++
		}
	}
	return big >= 2
}

// longCodes reports integers that number things rather than count them:
// six digits or more each, and either eight digits or more each and all
// but unique (a registry number), or ten or more distinct ones nine in
// ten of which lie within 5% of each other (a block of ids: 371920 to
// 373463, shared by rows, a few stray ones aside).
func longCodes(xs []float64, n int) bool {
	if len(xs) < 10 {
		return false
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	seen := map[float64]bool{}
	for _, x := range xs {
		if math.Abs(x) < 1e5 {
			return false
		}
		lo, hi = min(lo, x), max(hi, x)
		seen[x] = true
	}
	distinct := len(seen)
	q05, q95 := quantile(xs, 0.05), quantile(xs, 0.95)
	return lo >= 1e7 && distinct*10 >= n*9 || q05 > 0 && q95-q05 < 0.05*q05 && distinct >= 10
}

// moneyText reports whether every non-null cell of column idx is an amount
// with a currency sign or thousands separators, at least one of them marked.
func (t *table) moneyText(idx int) bool {
	marked, n := false, 0
	for _, r := range t.rows {
		v := r[idx]
		if strings.TrimSpace(v) == "" {
			continue
		}
		if !moneyRE.MatchString(v) {
			return false
		}
		marked = marked || strings.ContainsAny(v, "$€£¥,")
		n++
	}
	return marked && n > 0
}

// numeric reports whether every non-null cell of column idx is a number.
func (t *table) numeric(idx int) bool {
	if t.text(idx) {
		return false
	}
	n := 0
	for _, r := range t.rows {
		if r[idx] == "" {
			continue
		}
		if _, err := strconv.ParseFloat(r[idx], 64); err != nil {
			return false
		}
		n++
	}
	return n > 0
}

// leadingZeros reports whether some cell of column idx is a digit string
// with a leading zero ("007", "02134"): a code, whatever pandas makes of it.
func (t *table) leadingZeros(idx int) bool {
	for _, r := range t.rows {
		v := r[idx]
		if len(v) > 1 && v[0] == '0' && v[1] >= '0' && v[1] <= '9' {
			return true
		}
	}
	return false
}

// yearLike reports whether every value is a whole number from 1800 to 2100.
func yearLike(xs []float64) bool {
	for _, x := range xs {
		if x < 1800 || x > 2100 || x != math.Trunc(x) {
			return false
		}
	}
	return len(xs) > 0
}

// smallScale reports whether xs are whole numbers from 0 to 11, as the
// points of a rating scale, a level or a batting position are.
func smallScale(xs []float64) bool {
	lo, hi := minMax(xs)
	return lo >= 0 && hi <= 11
}

// monotoneSequence reports whether xs run up (or down) by exactly 1 at
// every step, as a row number or an index does, over at least 5 values.
func monotoneSequence(xs []float64) bool {
	if len(xs) < 5 {
		return false
	}
	d := xs[1] - xs[0]
	if d != 1 && d != -1 {
		return false
	}
	for i := 2; i < len(xs); i++ {
		if xs[i]-xs[i-1] != d {
			return false
		}
	}
	return true
}

// ofRole returns the columns with one of the roles; none when the table's
// header is really a data row, or repeats a name (pandas renames the
// second "x" to "x.1"): then no query can name its columns. A json
// table's columns of lists, objects or booleans have no role a template
// can use.
func (t *table) ofRole(rs ...role) []column {
	if t.headerless() || repeatsName(t.header) {
		return nil
	}
	var out []column
	for _, c := range t.columns() {
		if slices.Contains(rs, c.role) && !t.object(c.idx) {
			out = append(out, c)
		}
	}
	return out
}

// measures are the number columns that may be summarised: amounts,
// counts, rates. Amounts written as text ("$1,200") are left to the
// templates that convert them.
func (t *table) measures() []column { return numbers(t.ofRole(roleExtensive, roleIntensive)) }

// additive are the number measures whose totals make sense.
func (t *table) additive() []column { return numbers(t.ofRole(roleExtensive)) }

func numbers(cs []column) []column {
	return slices.DeleteFunc(cs, func(c column) bool { return !c.isNum })
}

// groupKeys are the string category columns a group-by may use.
func (t *table) categories() []column {
	var out []column
	for _, c := range t.ofRole(roleCategory) {
		if c.kind == kindCat {
			out = append(out, c)
		}
	}
	return out
}

// dates are the date columns.
func (t *table) dates() []column { return t.ofRole(roleDate) }

// repeatsName reports whether a header holds a name twice.
func repeatsName(h []string) bool {
	seen := map[string]bool{}
	for _, n := range h {
		if seen[n] {
			return true
		}
		seen[n] = true
	}
	return false
}

// aggOf is how a measure is totalled per group: a sum for an amount, a
// mean for a rate or level.
func aggOf(c column) (name, en, zh string, f func([]float64) float64) {
	if c.role == roleExtensive {
		return "sum", "total", "总", sum
	}
	return "mean", "average", "平均", mean
}

// headerless reports whether the first line of a delimited file is a data
// record rather than names: every column whose cells are numbers has a
// number (or a date) for a name, and the names are not the years of a wide
// table ("Country,2019,2020").
// steps reports column names that count columns: three or more whole
// numbers, each one more than the one before (0, 1, 2 … over a season's
// games), names rather than a record of data.
func steps(xs []float64) bool {
	if len(xs) < 3 {
		return false
	}
	for i, x := range xs {
		if x != math.Trunc(x) || i > 0 && x != xs[i-1]+1 {
			return false
		}
	}
	return true
}

// naName is a header cell that is a missing value as pandas writes or
// reads one: a headerless file's first record (1,null,0,0).
var naName = regexp.MustCompile(`^(?i:null|nan|none|n/a|na|#n/a)$`)

func (t *table) headerless() bool {
	if t.noHeader != 0 {
		return t.noHeader > 0
	}
	t.noHeader = -1
	if !t.delimited {
		return false
	}
	numCols, dataNames, years := 0, 0, 0
	var named []float64 // the numbers the header puts over columns of numbers
	for i, h := range t.header {
		h = strings.TrimSpace(h)
		if isDate(h) || naName.MatchString(h) {
			dataNames++ // a date, or a missing value, named a column
			continue
		}
		if !t.numeric(i) {
			continue
		}
		numCols++
		f, err := strconv.ParseFloat(h, 64)
		if err != nil {
			return false
		}
		dataNames++
		named = append(named, f)
		if f >= 1800 && f <= 2100 && f == math.Trunc(f) {
			years++
		}
	}
	if dataNames == 0 || (numCols > 0 && years == numCols) || steps(named) {
		return false
	}
	t.noHeader = 1
	return true
}

// aggregateLabel is the label of a row that totals others: "Total",
// "Grand total", "All", "World". allLabel is a short "All ..." label, as
// "All natural disasters", taken only in a column whose values repeat (so
// a title such as "All About Eve" is not one).
var (
	aggregateLabel = regexp.MustCompile(`(?i)^\s*(total|totals|grand[ _-]?total|sub[ _-]?total|sum|all|world|worldwide|global|overall|everyone|everything|合计|总计|总和|全部|所有)\s*$`)
	allLabel       = regexp.MustCompile(`(?i)^\s*all[ _-]+\S+([ _-]+\S+){0,2}\s*$`)
)

// totalWord is an aggregate label that says it totals: such a row is
// taken for a total on its label alone. Other labels ("All …", "World",
// "Overall", "Sum", which also names things: a toolkit's Sum class) must
// also outweigh the other rows (outweighs).
var totalWord = regexp.MustCompile(`(?i)^\s*(total|totals|grand[ _-]?total|sub[ _-]?total|合计|总计)\s*$`)

// outweighs reports whether the rows whose column idx holds label carry
// at least one and a half times the other rows' median in some measure
// column, as a row summing others does ("All natural disasters" deaths
// beside each kind's); an ordinary category ("All ages") does not.
func (t *table) outweighs(idx int, label string) bool {
	for _, m := range t.measures() {
		var in, out []float64
		for _, r := range t.rows {
			v, err := strconv.ParseFloat(r[m.idx], 64)
			if err != nil {
				continue
			}
			if r[idx] == label {
				in = append(in, math.Abs(v))
			} else {
				out = append(out, math.Abs(v))
			}
		}
		if len(in) > 0 && len(out) > 0 && quantile(in, 0.5) >= 1.5*quantile(out, 0.5) && quantile(in, 0.5) > 0 {
			return true
		}
	}
	return false
}

// aggregateRows maps each string column to the labels of its cells that
// name an aggregate of other rows; empty when there are none. Labels count
// when at most 3 distinct ones cover at most a third of the rows, so a
// column where "All" is an ordinary value is kept.
func (t *table) aggregateRows() map[int][]string {
	if t.aggRows != nil {
		return t.aggRows
	}
	t.aggRows = map[int][]string{}
	for _, c := range t.columns() {
		if c.isNum || c.kind == kindDate {
			continue
		}
		repeats := c.distinct < len(t.rows)-c.nulls
		hits := map[string]int{}
		n := 0
		for _, r := range t.rows {
			if v := r[c.idx]; aggregateLabel.MatchString(v) || (repeats && allLabel.MatchString(v)) {
				hits[v]++
				n++
			}
		}
		if n == 0 || len(hits) > 3 || n*3 > len(t.rows) {
			continue
		}
		labels := make([]string, 0, len(hits))
		for l := range hits {
			if !totalWord.MatchString(l) && !t.outweighs(c.idx, l) {
				continue // "All ages", "Worldwide": a category, not a sum of rows
			}
			labels = append(labels, l)
		}
		if len(labels) == 0 {
			continue
		}
		slices.Sort(labels)
		t.aggRows[c.idx] = labels
	}
	return t.aggRows
}

// withoutAggregates is t without its aggregate rows (t itself when it has
// none).
func (t *table) withoutAggregates() *table {
	if t.nobody != nil {
		return t.nobody
	}
	agg := t.aggregateRows()
	if len(agg) == 0 {
		t.nobody = t
		return t
	}
	out := &table{header: t.header, delimited: t.delimited, layout: t.layout, objects: t.objects, strings: t.strings}
	out.nobody = out
	for _, r := range t.rows {
		keep := true
		for idx, labels := range agg {
			if slices.Contains(labels, r[idx]) {
				keep = false
			}
		}
		if keep {
			out.rows = append(out.rows, r)
		}
	}
	t.nobody = out
	return out
}

// aggregateFilter is the pandas code that drops t's aggregate rows from
// the frame v, and the sentences that tell the user so; all empty when
// there are none.
func (t *table) aggregateFilter(v string) (code, en, zh string) {
	agg := t.aggregateRows()
	if len(agg) == 0 {
		return "", "", ""
	}
	var ens, zhs []string
	for _, c := range t.columns() {
		labels, ok := agg[c.idx]
		if !ok {
			continue
		}
		code += fmt.Sprintf("%[1]s = %[1]s[~%[1]s[%[2]s].isin(%[3]s)]\n", v, py(c.name), pyList(labels))
		q := make([]string, len(labels))
		for i, l := range labels {
			q[i] = strconv.Quote(l)
		}
		ens = append(ens, fmt.Sprintf("%s %s", c.name, strings.Join(q, " or ")))
		zhs = append(zhs, fmt.Sprintf("%s 为 %s", c.name, strings.Join(q, "或")))
	}
	en = fmt.Sprintf("Leave out the aggregate rows (%s): they total the others.", strings.Join(ens, "; "))
	zh = fmt.Sprintf("请排除汇总行（%s），它们是其他行的合计。", strings.Join(zhs, "；"))
	return code, en, zh
}

// withoutTotals runs a builder on the file's rows without its aggregate
// rows ("Total", "All"): the builder's table and load step leave them out,
// and every query says so.
func withoutTotals(b func(*bctx) ([]spec, error)) func(*bctx) ([]spec, error) {
	return func(c *bctx) ([]spec, error) {
		c.noTotals = true
		defer func() { c.noTotals = false }()
		specs, err := b(c)
		if err != nil {
			return nil, err
		}
		_, en, zh := c.rawTable(0).aggregateFilter("df")
		if en == "" {
			return specs, nil
		}
		for i := range specs {
			for j := range specs[i].en {
				specs[i].en[j] += " " + en
			}
			for j := range specs[i].zh {
				specs[i].zh[j] += zh
			}
		}
		return specs, nil
	}
}

// withTotalsSkipped runs a builder only on tables without aggregate rows:
// its checks read the input file themselves, so it cannot leave them out.
func withTotalsSkipped(b func(*bctx) ([]spec, error)) func(*bctx) ([]spec, error) {
	return func(c *bctx) ([]spec, error) {
		if len(c.rawTable(0).aggregateRows()) > 0 {
			return nil, nil
		}
		return b(c)
	}
}

// sumsByName reports whether a column's name lets its values be totalled:
// it names no rate, level, price, identifier, rank or year. It judges the
// text columns (amounts written "$1,200") that profile cannot read.
func sumsByName(name string) bool {
	bare := strings.TrimSpace(unitPart.ReplaceAllString(name, ""))
	if countWords.MatchString(bare) {
		return true
	}
	u := unitOf(name)
	return !intensiveWords.MatchString(bare) && !idWords.MatchString(bare) && !ordinalWords.MatchString(bare) &&
		!yearWords.MatchString(bare) && (u == "" || !intensiveUnits.MatchString(u))
}

// labels are the string columns whose distinct values a query may count:
// categories and text.
func (t *table) labels() []column {
	var out []column
	for _, c := range t.ofRole(roleCategory, roleText, roleOrdinal, roleID) {
		if (c.kind == kindCat || c.kind == kindText) && !t.mixedTypes(c.idx) {
			out = append(out, c)
		}
	}
	return out
}

// mixedTypes reports a column whose cells mix numbers with text: pandas
// keeps each cell's own type there (an xlsx cell 1, the text "1" and TRUE
// are three values to Go and may be one or two to pandas, where 1 == True),
// so counts and groups over it have no single answer.
func (t *table) mixedTypes(idx int) bool {
	num, other := false, false
	for _, r := range t.rows {
		v := strings.TrimSpace(r[idx])
		if v == "" {
			continue
		}
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			num = true
		} else {
			other = true
		}
		if num && other {
			return true
		}
	}
	return false
}

// named drops the blank names of a header, which pandas renames
// ("Unnamed: 0") and a converted or cleaned file may not keep.
func named(names []string) []string {
	return slices.DeleteFunc(names, unnamed.MatchString)
}
