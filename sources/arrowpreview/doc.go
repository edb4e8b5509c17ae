// Package arrowpreview previews Parquet and Arrow IPC (Feather v2) files
// with Apache Arrow Go: columns with dtypes, row count and the first rows.
// Importing it registers the previewers with package sources; only programs
// that import it link Arrow.
package arrowpreview
