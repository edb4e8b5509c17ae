package template

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"synth/generators"
)

// TestRolesByMeaning: surrogate keys, keys and two-digit model years are
// never measures.
func TestRolesByMeaning(t *testing.T) {
	var b strings.Builder
	b.WriteString("c_first_sales_date_sk,customer_key,CustomerKey,model_yr,mpg,zip\n")
	for i := range 20 {
		fmt.Fprintf(&b, "%d,%d,%d,%d,%d.5,%05d\n", 2450815+i*37, 100+i*3, 7+i*11, 70+i%13, 15+i, 2134+i)
	}
	tab, err := readTable(writeFile(t, t.TempDir(), "sales.csv", "csv", []byte(b.String())).Path, "csv")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]role{"c_first_sales_date_sk": roleID, "customer_key": roleID, "CustomerKey": roleID, "model_yr": roleYear, "mpg": roleIntensive, "zip": roleID}
	for _, c := range tab.columns() {
		if c.role != want[c.name] {
			t.Errorf("%s is %s, want %s", c.name, c.role, want[c.name])
		}
	}
	if ms := tab.measures(); len(ms) != 1 || ms[0].name != "mpg" {
		t.Errorf("measures %v, want mpg alone", ms)
	}
}

// TestPairsByMeaning: a product column is a price times a quantity, never
// two unrelated measures; a join needs keys that overlap and a key that is
// more than a row number.
func TestPairsByMeaning(t *testing.T) {
	dir := t.TempDir()
	table := func(name, header string, row func(i int) string, n int) generators.Input {
		var b strings.Builder
		b.WriteString(header + "\n")
		for i := range n {
			b.WriteString(row(i) + "\n")
		}
		return writeFile(t, dir, name, "csv", []byte(b.String()))
	}
	orders := table("orders.csv", "order_ref,unit_price,quantity,rain_paris_mm,rain_rome_mm", func(i int) string {
		return fmt.Sprintf("R%03d,%d.25,%d,%d.1,%d.2", i, 3+i%5, 1+i%4, 20+i*3%17, 30+i*7%23)
	}, 15)
	weather := table("weather.csv", "station,rain_paris_mm,rain_rome_mm", func(i int) string {
		return fmt.Sprintf("s%d,%d.1,%d.2", i, 20+i*3%17, 30+i*7%23)
	}, 15)
	numbered := table("people.csv", "id,name,age", func(i int) string { return fmt.Sprintf("%d,p%d,%d", i+1, i, 20+i*3%41) }, 15)
	cities := table("cities.csv", "id,city,pop", func(i int) string { return fmt.Sprintf("%d,c%d,%d", i+1, i, 1000+i*37) }, 15)
	refs := table("shipments.csv", "order_ref,carrier", func(i int) string { return fmt.Sprintf("R%03d,k%d", i, i%3) }, 15)
	far := table("returns.csv", "order_ref,reason", func(i int) string { return fmt.Sprintf("R%03d,x%d", 10+i, i%3) }, 15)

	gen := func(include string, ins ...generators.Input) map[string]string {
		tasks, err := New(Options{Seed: 1, Langs: []string{"en"}, Include: []string{include}}).Generate(context.Background(), ins)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, task := range tasks {
			var names []string
			for _, f := range task.Files {
				names = append(names, f.Name)
			}
			got[strings.Join(names, "+")] = task.Query
		}
		return got
	}
	added := gen("table.addcol", orders, weather)
	if q, ok := added["orders.csv"]; !ok || !strings.Contains(q, "unit_price_x_quantity") && !strings.Contains(q, "quantity_x_unit_price") {
		t.Errorf("orders.csv: addcol %q, want unit_price × quantity", q)
	}
	if q, ok := added["weather.csv"]; ok {
		t.Errorf("weather.csv: one city's rain times another's: %q", q)
	}
	joined := gen("table.join", numbered, cities, orders, refs, far)
	for pair := range joined {
		if pair != "orders.csv+shipments.csv" && pair != "shipments.csv+orders.csv" {
			t.Errorf("joined %s", pair)
		}
	}
	if len(joined) == 0 {
		t.Errorf("no join of orders.csv and shipments.csv, whose order_ref overlap")
	}
}

// TestQuantityWordsNotCounty: a county or a country is not a count, so a
// rate is never multiplied by a county code as by a quantity.
func TestQuantityWordsNotCounty(t *testing.T) {
	for name, want := range map[string]bool{"county_bucket": false, "country": false, "item_count": true, "Count": true, "counts": true, "units_sold": true} {
		if got := quantityWords.MatchString(name); got != want {
			t.Errorf("quantityWords(%q) = %v, want %v", name, got, want)
		}
	}
}
