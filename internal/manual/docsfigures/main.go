// Command docsfigures compares the figures README.md and the manual quote
// from make demo with what the demo recorded (make docs-check runs it):
//
//	go run ./internal/manual/docsfigures [-run out] [PAGE...]
//
// Without pages it reads README.md and docs/*.md. It prints each figure
// that disagrees and exits 1 if any does, 2 for a usage error.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"synth/internal/manual"
)

func main() {
	run := flag.String("run", "out", "the run directory make demo wrote")
	flag.Parse()
	pages := flag.Args()
	if len(pages) == 0 {
		docs, _ := filepath.Glob("docs/*.md")
		pages = append([]string{"README.md"}, docs...)
	}
	d, err := manual.ReadDemo(*run)
	if err != nil {
		fmt.Fprintln(os.Stderr, "docsfigures:", err)
		os.Exit(2)
	}
	var bad []string
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "docsfigures:", err)
			os.Exit(2)
		}
		bad = append(bad, manual.Figures(p, string(b), d)...)
	}
	for _, b := range bad {
		fmt.Println(b)
	}
	if len(bad) > 0 {
		fmt.Printf("%d figures disagree with %s/run.json: rerun make demo and copy its figures\n", len(bad), *run)
		os.Exit(1)
	}
	fmt.Printf("the figures of %d pages agree with %s/run.json (%.1f CPU-seconds)\n", len(pages), *run, d.CPUSeconds())
}
