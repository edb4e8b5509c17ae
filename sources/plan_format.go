package sources

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"
)

// WritePlan prints a dry run: one line per planned file (name, size,
// license, reference), then the total and the count per license.
func WritePlan(w io.Writer, plan []Planned) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSIZE\tLICENSE\tSOURCE")
	var total int64
	unknown := 0
	licenses := map[string]int{}
	for _, p := range plan {
		size := "?"
		if p.Size > 0 {
			size = HumanSize(p.Size)
			total += p.Size
		} else {
			unknown++
		}
		lic := NormalizeLicense(p.Source.License)
		if lic == "" {
			lic = "unknown"
		}
		licenses[lic]++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s:%s\n", p.Name, size, lic, p.Source.Kind, p.Source.Ref)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%d files, %s", len(plan), HumanSize(total))
	if unknown > 0 {
		fmt.Fprintf(w, " (+%d of unknown size)", unknown)
	}
	fmt.Fprintln(w)
	names := make([]string, 0, len(licenses))
	for l := range licenses {
		names = append(names, l)
	}
	sort.Slice(names, func(i, j int) bool {
		if licenses[names[i]] != licenses[names[j]] {
			return licenses[names[i]] > licenses[names[j]]
		}
		return names[i] < names[j]
	})
	for _, l := range names {
		fmt.Fprintf(w, "  %s: %d\n", l, licenses[l])
	}
	return nil
}

// HumanSize renders a byte count with a binary unit: 512 B, 1.5 KiB, 2.0 GiB.
func HumanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
