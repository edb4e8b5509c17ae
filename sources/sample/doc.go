// Package sample is the built-in corpus: small, realistic files of every
// supported type, generated deterministically in Go from a seed, so a build
// runs offline and the same seed always gives byte-identical files. Each
// file has its own random stream, so adding a file changes no other.
//
// The first files are written by hand: sales.csv (orders with nulls,
// duplicates and bulk-order outliers), customers.csv (joins sales on
// customer_id), weather.csv (a daily time series), flowers.csv and
// housing.csv (for classification, clustering and regression), scores.tsv,
// products.json (prices as text, day/month/year dates), employees.xlsx (two
// sheets), metrics.parquet, article.txt, handbook.md, parks.html,
// report.pdf, minutes.docx, shapes.png, landscape.jpeg, bounce.gif,
// badge.webp, chime.wav, speech.wav and silence.mp3.
//
// Then domainTables declares tables of many domains (retail, weather, HR,
// sensors, finance, sports, health, logistics, education, energy, web
// analytics, housing, farming, transport, film, surveys) as columns, some
// clean and some messy as real exports are: mixed date formats, thousands
// separators, stray spaces and spelling variants in categories, blanks,
// repeated rows, outliers, Chinese column names. genreFiles are texts of
// several genres as txt, md, html, pdf and docx; mediaFiles are images of
// several kinds (no two of them mirror-symmetric, so flips show) and
// sounds. Every file is CC0-1.0.
package sample
