package view

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// assets are the site's static files: two HTML pages, their scripts and the
// style sheet. No framework, nothing fetched at view time.
//
//go:embed assets/*
var assets embed.FS

// writeAssets writes the pages into out and their scripts and style into
// out/assets, the policy (csp) put into each page's meta tag.
func writeAssets(out string) error {
	ents, err := assets.ReadDir("assets")
	if err != nil {
		return err
	}
	for _, e := range ents {
		b, err := assets.ReadFile("assets/" + e.Name())
		if err != nil {
			return err
		}
		dst := filepath.Join(out, "assets", e.Name())
		if strings.HasSuffix(e.Name(), ".html") {
			b = []byte(strings.ReplaceAll(string(b), "{{CSP}}", csp))
			dst = filepath.Join(out, e.Name())
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return fmt.Errorf("view: %w", err)
		}
	}
	return nil
}
