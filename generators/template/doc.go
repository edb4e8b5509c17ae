// Package template writes tasks from files offline: each template reads its
// input file (real column names, categories, sizes, words), asks for one
// thing the way a person would, in English or Chinese, and carries a
// reference solution and the checks that decide a rollout.
//
// Templates cover PyBench's five categories; Templates lists them with the
// Python modules they need, and Validate proves a task's checks through
// package proof: its reference solution must pass, and, where defined, a
// mutated solution (Mutant) and every adversary must fail.
//
// # The catalogue
//
// Each tpl_*.go file holds the templates over one kind of input: its init
// registers them (name, group, file types, builder, mutant), and its build*
// functions write their tasks.
//
//	tpl_table_clean.go      tables: dedup, dropna, fillna, iqr, types, dates
//	tpl_table_transform.go  tables: sort, filter, topn, addcol, convert, join (two tables)
//	tpl_table_aggregate.go  tables: groupby, pivot, monthly
//	tpl_table_stats.go      tables: stat, topgroup, corr, shape, nunique, missing, describe; xlsx.sheets
//	tpl_chart.go            charts of a table: bar, line, pie, scatter, hist, heatmap, radar, box
//	tpl_ml.go               models of a table: ml.classify, ml.regress, ml.cluster
//	tpl_text.go             txt and md: word counts, top words, summary, years, lines, sentences,
//	                        frequency table, word cloud, replace; md headings and tables
//	tpl_docs.go             pdf (page, pages, extract, word count), docx (paragraphs, to text),
//	                        html (links, title)
//	tpl_image.go            images: rotate, flip, crop, resize, grayscale, brightness, contrast,
//	                        blur, sharpen, mirrorconcat, caption, convert, size, GIF frames,
//	                        concat (two images); a QR code (no file)
//	tpl_audio.go            wav and mp3: duration, convert, trim, fade, volume, repeat, resample,
//	                        reverse, concat (two files)
//	tpl_math.go             no file: derivative, integral, quadratic, linear system, big integer,
//	                        limit, series, determinant, primes, gcd
//	tpl_web.go              web pages and forms (no file); an HTML page of a table
//	tpl_program.go          no file: a function, a class
//
// What the builders share: read.go reads each file once, as its type,
// before any template sees it (usable), and hands builders what it read
// (table.go for tables, with roles.go and messy.go on what their columns
// mean; docs.go for pdf, docx and html; media.go for images and audio);
// build.go has the reference steps and checks they write with, mutate.go
// the wrong solutions their checks must reject, outname.go the output
// paths. template.go is Generate: it picks the templates, reads each file
// and runs the one-file templates over it, then the two-file templates over
// pairs of files, then the templates that read no file.
//
// # Errors
//
// A file that cannot be read as its type, or is too small for any
// template, gets no task; Untasked says why. A builder that cannot make a
// task from its files returns an error naming the file; so does one that
// panics (recovered: a bug an odd file revealed). Its files then lose that
// template's tasks with a warning, as they lose a task that fails
// checks.Validate, unless Options.Strict makes either the error of
// Generate. A builder that finds nothing to ask returns no spec and no
// error.
package template
