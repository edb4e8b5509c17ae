package sample

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"
)

var (
	firstNames = []string{"Alice", "Bob", "Carmen", "David", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas",
		"Keiko", "Liam", "Maya", "Noah", "Olga", "Pedro", "Quinn", "Rosa", "Samir", "Tara", "Umar", "Vera", "Wei", "Yusuf", "Zoe"}
	lastNames = []string{"Anders", "Brooks", "Chen", "Diaz", "Evans", "Fischer", "Garcia", "Haddad", "Ito", "Jensen",
		"Kowalski", "Lopez", "Moreau", "Novak", "Okafor", "Patel", "Rossi", "Silva", "Tanaka", "Weber"}
	cities  = []string{"Berlin", "Lisbon", "Osaka", "Toronto", "Nairobi", "Melbourne"}
	regions = []string{"North", "South", "East", "West"}
)

type product struct {
	name, category string
	price          float64
}

var products = []product{
	{"Laptop", "Electronics", 899}, {"Headphones", "Electronics", 79.5}, {"Monitor", "Electronics", 219},
	{"Desk Chair", "Furniture", 149}, {"Bookshelf", "Furniture", 95}, {"Standing Desk", "Furniture", 420},
	{"Notebook", "Office Supplies", 4.25}, {"Pen Set", "Office Supplies", 12.9}, {"Stapler", "Office Supplies", 8.75},
	{"Coffee Maker", "Appliances", 64}, {"Blender", "Appliances", 48.5},
}

var day0 = time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)

func date(days int) string { return day0.AddDate(0, 0, days).Format("2006-01-02") }

func f2(x float64) string { return strconv.FormatFloat(math.Round(x*100)/100, 'f', 2, 64) }
func f1(x float64) string { return strconv.FormatFloat(math.Round(x*10)/10, 'f', 1, 64) }

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func personName(r *rand.Rand) string { return pick(r, firstNames) + " " + pick(r, lastNames) }

// writeCSV renders rows (the first is the header) as CSV.
func writeCSV(rows [][]string, comma rune) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Comma = comma
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// dirty blanks a few cells of the given columns and appends copies of a few
// rows, so cleaning tasks have something to clean. Header is rows[0].
func dirty(r *rand.Rand, rows [][]string, nullCols []int, nulls, dups int) [][]string {
	n := len(rows) - 1
	for i := 0; i < nulls; i++ {
		row := rows[1+r.IntN(n)]
		row[nullCols[i%len(nullCols)]] = ""
	}
	for i := 0; i < dups; i++ {
		src := rows[1+r.IntN(n)]
		cp := append([]string(nil), src...)
		at := 1 + r.IntN(len(rows)-1)
		rows = append(rows[:at], append([][]string{cp}, rows[at:]...)...)
	}
	return rows
}

func makeSales(r *rand.Rand) ([]byte, error) {
	rows := [][]string{{"order_id", "order_date", "region", "product", "category", "units", "unit_price", "discount", "revenue", "customer_id"}}
	for i := 0; i < 240; i++ {
		p := pick(r, products)
		units := 1 + r.IntN(9)
		if r.IntN(60) == 0 {
			units = 80 + r.IntN(40) // a bulk order: an outlier
		}
		disc := []float64{0, 0, 0, 0.05, 0.1, 0.15}[r.IntN(6)]
		price := p.price * (0.95 + 0.1*r.Float64())
		rows = append(rows, []string{
			fmt.Sprintf("SO-%05d", 10001+i), date(r.IntN(365)), pick(r, regions), p.name, p.category,
			strconv.Itoa(units), f2(price), f2(disc), f2(float64(units) * price * (1 - disc)),
			fmt.Sprintf("C%03d", 1+r.IntN(60)),
		})
	}
	rows = dirty(r, rows, []int{2, 5, 7}, 9, 6)
	return writeCSV(rows, ',')
}

func makeCustomers(r *rand.Rand) ([]byte, error) {
	rows := [][]string{{"customer_id", "name", "city", "segment", "signup_date", "age"}}
	for i := 1; i <= 60; i++ {
		rows = append(rows, []string{
			fmt.Sprintf("C%03d", i), personName(r), pick(r, cities),
			pick(r, []string{"Consumer", "Corporate", "Home Office"}), date(-r.IntN(900)), strconv.Itoa(19 + r.IntN(55)),
		})
	}
	return writeCSV(rows, ',')
}

func makeWeather(r *rand.Rand) ([]byte, error) {
	rows := [][]string{{"date", "city", "temp_c", "humidity", "precipitation_mm", "wind_kph"}}
	base := map[string]float64{"Berlin": 10, "Lisbon": 17, "Osaka": 16}
	for d := 0; d < 365; d++ {
		for _, c := range []string{"Berlin", "Lisbon", "Osaka"} {
			season := -math.Cos(2 * math.Pi * float64(d) / 365)
			temp := base[c] + 9*season + r.NormFloat64()*2.5
			rain := 0.0
			if r.IntN(3) == 0 {
				rain = r.ExpFloat64() * 4
			}
			rows = append(rows, []string{date(d), c, f1(temp), strconv.Itoa(45 + r.IntN(50)), f1(rain), f1(5 + r.Float64()*30)})
		}
	}
	rows = dirty(r, rows, []int{2, 3}, 12, 4)
	return writeCSV(rows, ',')
}
