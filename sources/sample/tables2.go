package sample

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
)

// makeProducts writes a JSON array of product records whose prices are
// text with a currency sign and thousands separators, and whose dates are
// day/month/year, so type and date fixes are needed.
func makeProducts(r *rand.Rand) ([]byte, error) {
	type rec struct {
		SKU      string  `json:"sku"`
		Name     string  `json:"name"`
		Category string  `json:"category"`
		Price    string  `json:"price"`
		Stock    int     `json:"stock"`
		Rating   float64 `json:"rating"`
		Added    string  `json:"added"`
	}
	var recs []rec
	for i := 0; i < 48; i++ {
		p := products[r.IntN(len(products))]
		price := p.price * (0.7 + 0.9*r.Float64()) * float64(1+r.IntN(3))
		recs = append(recs, rec{
			SKU: fmt.Sprintf("SKU-%04d", 100+i*7), Name: p.name + " " + pick(r, []string{"Pro", "Lite", "Classic", "Mini", "Max"}),
			Category: p.category, Price: "$" + thousands(price), Stock: r.IntN(250), Rating: float64(25+r.IntN(26)) / 10,
			Added: day0.AddDate(0, 0, -r.IntN(700)).Format("02/01/2006"),
		})
	}
	return json.MarshalIndent(recs, "", "  ")
}

// thousands formats x with two decimals and comma separators.
func thousands(x float64) string {
	s := strconv.FormatFloat(math.Round(x*100)/100, 'f', 2, 64)
	intPart, frac := s[:len(s)-3], s[len(s)-3:]
	for i := len(intPart) - 3; i > 0; i -= 3 {
		intPart = intPart[:i] + "," + intPart[i:]
	}
	return intPart + frac
}

// makeScores writes a TSV of students' marks in five subjects.
func makeScores(r *rand.Rand) ([]byte, error) {
	rows := [][]string{{"student", "class", "math", "physics", "chemistry", "literature", "history"}}
	for i := 0; i < 90; i++ {
		class := pick(r, []string{"A", "B", "C"})
		talent := r.NormFloat64() * 8
		bias := map[string]float64{"A": 6, "B": 0, "C": -4}[class]
		mark := func(extra float64) string {
			return strconv.Itoa(int(math.Max(0, math.Min(100, math.Round(70+bias+talent+extra+r.NormFloat64()*9)))))
		}
		rows = append(rows, []string{fmt.Sprintf("%s %c.", pick(r, firstNames), 'A'+rune(r.IntN(26))), "Class " + class,
			mark(3), mark(0), mark(-2), mark(2), mark(1)})
	}
	return writeCSV(rows, '\t')
}

// makeFlowers writes three species of flowers with four measurements, well
// separated enough for classification and clustering.
func makeFlowers(r *rand.Rand) ([]byte, error) {
	rows := [][]string{{"sepal_length", "sepal_width", "petal_length", "petal_width", "species"}}
	type sp struct {
		name string
		mu   [4]float64
	}
	species := []sp{{"setosa", [4]float64{5.0, 3.4, 1.5, 0.25}}, {"versicolor", [4]float64{5.9, 2.8, 4.3, 1.3}}, {"virginica", [4]float64{6.6, 3.0, 5.6, 2.0}}}
	for i := 0; i < 150; i++ {
		s := species[i%3]
		row := make([]string, 0, 5)
		for k := 0; k < 4; k++ {
			row = append(row, f1(math.Max(0.1, s.mu[k]+r.NormFloat64()*0.3)))
		}
		rows = append(rows, append(row, s.name))
	}
	return writeCSV(rows, ',')
}

// makeHousing writes house sales whose price is linear in the features plus
// noise, for regression.
func makeHousing(r *rand.Rand) ([]byte, error) {
	rows := [][]string{{"area_sqm", "bedrooms", "age_years", "distance_km", "neighborhood", "price"}}
	for i := 0; i < 200; i++ {
		area := 40 + r.Float64()*160
		beds := 1 + int(area/45) + r.IntN(2)
		age := r.IntN(80)
		dist := 0.5 + r.Float64()*25
		nb := pick(r, []string{"Riverside", "Old Town", "Hillcrest", "Harbor"})
		price := 1800*area + 9000*float64(beds) - 900*float64(age) - 3500*dist + map[string]float64{"Riverside": 30000, "Old Town": 50000, "Hillcrest": 10000, "Harbor": 0}[nb] + r.NormFloat64()*15000
		rows = append(rows, []string{f1(area), strconv.Itoa(beds), strconv.Itoa(age), f1(dist), nb, strconv.Itoa(int(price/100) * 100)})
	}
	return writeCSV(rows, ',')
}
