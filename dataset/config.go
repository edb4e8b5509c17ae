package dataset

// Config is the dataset section of synth.yaml: how the dataset is emitted.
type Config struct {
	// ShardRows caps the rows of one Parquet shard.
	ShardRows int `yaml:"shard_rows"`
	// RowGroupRows caps the rows of one row group.
	RowGroupRows int `yaml:"row_group_rows"`
}
