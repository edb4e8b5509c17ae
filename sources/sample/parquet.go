package sample

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// metric is one row of metrics.parquet.
type metric struct {
	Date      string   `parquet:"date"`
	Server    string   `parquet:"server"`
	CPUPct    float64  `parquet:"cpu_pct"`
	MemGB     float64  `parquet:"mem_gb"`
	Requests  int64    `parquet:"requests"`
	LatencyMS *float64 `parquet:"latency_ms,optional"`
}

// makeMetrics writes daily server metrics as zstd-compressed Parquet, with
// a few missing latencies.
func makeMetrics(r *rand.Rand) ([]byte, error) {
	var rows []metric
	for d := 0; d < 120; d++ {
		for s := 1; s <= 3; s++ {
			load := 0.5 + 0.3*math.Sin(float64(d)/7) + r.Float64()*0.2
			lat := math.Round((20+80*load+r.NormFloat64()*5)*10) / 10
			m := metric{Date: date(d), Server: fmt.Sprintf("web-%02d", s), CPUPct: math.Round(load*1000) / 10,
				MemGB: math.Round((4+4*load+r.Float64())*100) / 100, Requests: int64(1000 + load*9000 + float64(r.IntN(500))), LatencyMS: &lat}
			if r.IntN(40) == 0 {
				m.LatencyMS = nil
			}
			rows = append(rows, m)
		}
	}
	var b bytes.Buffer
	w := parquet.NewGenericWriter[metric](&b, parquet.Compression(&zstd.Codec{}))
	if _, err := w.Write(rows); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
