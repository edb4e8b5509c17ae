package sources

import (
	"errors"
	"os"

	"github.com/ledongthuc/pdf"

	"synth/schemas"
)

// previewPDF shows a PDF's page count and the text of its first page.
func previewPDF(path string) (*schemas.Preview, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	r, err := pdf.NewReader(f, st.Size())
	if err != nil {
		return nil, err
	}
	p := &schemas.Preview{Pages: r.NumPage()}
	if p.Pages == 0 {
		return nil, errors.New("no pages")
	}
	page := r.Page(1)
	if page.V.IsNull() {
		return p, nil
	}
	text, err := page.GetPlainText(nil)
	if err == nil {
		p.Text = clip(squeeze(text), previewChars)
	}
	return p, nil
}
