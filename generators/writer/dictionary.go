package writer

import "synth/schemas"

// TaskType is an entry of the dictionary of task types: a category, a
// subcategory and keywords that say what the query should ask for.
type TaskType struct {
	Category    string   `yaml:"category" json:"category"`
	Subcategory string   `yaml:"subcategory" json:"subcategory"`
	Keywords    []string `yaml:"keywords" json:"keywords"`
	// Requires lists Python modules beyond the core set that tasks of this
	// type need (copied to Task.Requires).
	Requires []string `yaml:"requires" json:"requires"`
}

// Groups of file types that share task types.
var fileGroups = map[string]string{
	"csv": "table", "tsv": "table", "xlsx": "table", "xls": "table", "json": "table", "parquet": "table",
	"txt": "text", "md": "text", "pdf": "text", "docx": "text", "html": "text",
	"png": "image", "jpeg": "image", "jpg": "image", "gif": "image", "webp": "image", "bmp": "image",
	"wav": "audio", "mp3": "audio", "flac": "audio",
}

// DefaultDictionary maps a file group (table, text, image, audio) to the
// task types a query about such a file may take, after the kinds of tasks
// PyBench collects for each category.
var DefaultDictionary = map[string][]TaskType{
	"table": {
		{schemas.CategoryData, "data_cleaning", []string{"remove duplicate rows", "fill missing values", "drop rows with nulls", "remove outliers by IQR", "fix column types"}, nil},
		{schemas.CategoryData, "data_transformation", []string{"sort by a column", "filter rows", "group by and aggregate", "pivot table", "add a derived column", "merge columns"}, nil},
		{schemas.CategoryData, "statistics", []string{"mean and standard deviation", "median", "correlation", "count per category", "top 5 by value", "percent change"}, nil},
		{schemas.CategoryData, "visualization", []string{"bar chart", "line chart", "scatter plot", "pie chart", "histogram", "box plot"}, nil},
		{schemas.CategoryData, "machine_learning", []string{"linear regression", "k-means clustering", "classification", "train/test split", "time series forecast"}, nil},
		{schemas.CategoryData, "data_export", []string{"convert to csv", "export to excel", "save a summary table", "split into files"}, nil},
	},
	"text": {
		{schemas.CategoryText, "summarization", []string{"summarize", "main points", "one-paragraph abstract"}, nil},
		{schemas.CategoryText, "keyword_extraction", []string{"most frequent words", "keywords", "named entities", "word frequency table"}, nil},
		{schemas.CategoryText, "word_cloud", []string{"word cloud", "word cloud with a mask or colours"}, []string{"wordcloud"}},
		{schemas.CategoryText, "text_statistics", []string{"count words", "count sentences", "average sentence length", "count a given word"}, nil},
		{schemas.CategoryText, "information_extraction", []string{"extract dates", "extract numbers", "find emails or links", "list section titles"}, nil},
	},
	"image": {
		{schemas.CategoryMedia, "image_editing", []string{"resize", "rotate", "flip horizontally", "crop", "convert to grayscale"}, nil},
		{schemas.CategoryMedia, "image_enhancement", []string{"increase brightness", "increase contrast", "sharpen", "blur", "denoise"}, nil},
		{schemas.CategoryMedia, "image_analysis", []string{"image size", "dominant colour", "colour histogram", "edge detection"}, nil},
		{schemas.CategoryMedia, "image_conversion", []string{"convert format", "make a thumbnail", "add a border", "combine with itself side by side"}, nil},
	},
	"audio": {
		{schemas.CategoryMedia, "audio_editing", []string{"cut the first seconds", "increase volume", "decrease volume", "fade in and out", "reverse"}, nil},
		{schemas.CategoryMedia, "audio_analysis", []string{"duration", "sample rate", "loudness", "waveform plot", "spectrogram"}, nil},
		{schemas.CategoryMedia, "audio_conversion", []string{"convert format", "convert to mono", "resample"}, nil},
	},
}

// group returns the dictionary group of a file type, "" if none.
func group(fileType string) string { return fileGroups[fileType] }
