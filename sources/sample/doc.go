// Package sample is the built-in corpus: small, realistic files of every
// supported type, generated deterministically in Go from a seed, so a build
// runs offline and the same seed always gives byte-identical files.
//
// The corpus: sales.csv (orders with nulls, duplicates and bulk-order
// outliers), customers.csv (joins sales on customer_id), weather.csv (a
// daily time series), flowers.csv and housing.csv (for classification,
// clustering and regression), scores.tsv, products.json (prices as text,
// day/month/year dates), employees.xlsx (two sheets), metrics.parquet,
// article.txt, handbook.md, parks.html, report.pdf (three pages of text),
// minutes.docx, shapes.png (shapes and a caption), landscape.jpeg,
// bounce.gif (animated), badge.webp (lossless), chime.wav (tones),
// speech.wav (speech-like noise) and silence.mp3. Every file is CC0-1.0.
package sample
