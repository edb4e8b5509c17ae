// Package view writes a static web site for reading what synth made: a run
// directory, a dataset folder or the results of synth eval (one folder, or
// two side by side).
//
// The site opens from disk (file://) with no server, and Serve serves it.
// Its index lists every trajectory with filters, a search over the queries
// and the run's funnel; a page per trajectory shows the query, the input
// files, every message, the artifacts inline and the verdict.
//
// Everything a rollout wrote is data. Pages are static HTML with a strict
// Content-Security-Policy that runs only the site's own scripts; the data
// reaches them as JSON inside script files the site writes (JSON escaped by
// encoding/json, so it cannot end the call it sits in) and is put into the
// page as text nodes, never as markup. Images (SVG included) are shown with
// <img>, HTML artifacts only in an <iframe sandbox> without allow-scripts.
//
// The site is written as a stream: one trajectory at a time, its page data
// in its own file, the index in chunks, so neither memory nor the time to
// open the index grows with the run. Input files and artifacts are linked
// from the run by relative paths; Options.Copy copies them into the site.
package view
