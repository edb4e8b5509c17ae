package template

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"synth/generators"
	"synth/schemas"
)

// filmsCSV is a table of films like a public one: grosses and a budget, a
// running time, ratings out of 10 and 100, and DVD sales to predict. With
// dollars, the grosses' spread is about 1e8 times the IMDB rating's; in
// millions of dollars, about 1e2.
func filmsCSV(scale float64) string {
	return genRows("Title,US Gross,Worldwide Gross,Production Budget,Running Time min,Rotten Tomatoes Rating,IMDB Rating,US DVD Sales", 80, func(i int) string {
		us := float64(1+(i*37)%97) * 1.3e6
		ww := us*(1.4+float64(i%7)/10) + float64((i*53)%11)*1e6
		budget := float64(5+(i*29)%60) * 1e6
		rt := 20 + (i*17)%80
		imdb := 3 + float64((i*13)%60)/10
		dvd := 0.2*us + 0.05*ww - 0.1*budget + float64(rt)*2e4 + imdb*3e5 + float64((i*71)%23)*4e5
		return fmt.Sprintf("Film %d,%.0f,%.0f,%.0f,%d,%d,%.1f,%.0f", i, us/scale, ww/scale, budget/scale, 85+(i*7)%60, rt, imdb, dvd/scale)
	})
}

// TestRegressNeedsComparableScales: a regression whose features' spreads
// differ by more than maxScaleRatio is not written, since scikit-learn's
// LinearRegression no longer finds the least-squares fit there and no
// solver would print the R² the task expects; the same table in millions
// gets its task.
func TestRegressNeedsComparableScales(t *testing.T) {
	dir := t.TempDir()
	var ins []generators.Input
	for name, scale := range map[string]float64{"films_dollars.csv": 1, "films_millions.csv": 1e6} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(filmsCSV(scale)), 0o644); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, generators.Input{File: schemas.File{ID: name, Name: name, Type: "csv"}, Path: p})
	}
	got := map[string]int{}
	for seed := int64(1); seed <= 3; seed++ {
		tasks, err := New(Options{Seed: seed, Langs: []string{"en"}, Include: []string{"ml.regress"}}).Generate(context.Background(), ins)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range tasks {
			got[task.Files[0].Name]++
		}
	}
	if got["films_dollars.csv"] != 0 {
		t.Errorf("%d ml.regress tasks on features whose spreads differ by 1e8", got["films_dollars.csv"])
	}
	if got["films_millions.csv"] == 0 {
		t.Error("no ml.regress task on the same films in millions: the test proves nothing")
	}
}

func TestComparableScales(t *testing.T) {
	for _, c := range []struct {
		xs   [][]float64
		want bool
	}{
		{[][]float64{{1, 100}, {2, 300}, {3, 200}}, true},
		{[][]float64{{1, 1e6}, {2, 3e6}, {3, 2e6}}, false},
		{[][]float64{{1, 5}, {1, 6}, {1, 7}}, false}, // a constant feature
	} {
		if got := comparableScales(c.xs); got != c.want {
			t.Errorf("comparableScales(%v) = %v, want %v", c.xs, got, c.want)
		}
	}
}
