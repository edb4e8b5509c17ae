package dataset

import (
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
)

// pageWindow is the zstd window of a page: parquet-go compresses each page
// on its own (256 KiB of values by default), so a larger window only costs
// memory — the encoder's default of 8 MiB holds 16 MiB of history per
// encoder, one per worker.
const pageWindow = 1 << 20

// zstdCodec is the zstd page codec of the shards: standard zstd frames,
// written with a window fitted to a page and encoders pooled across
// workers. It is safe for concurrent use, as parquet-go requires.
type zstdCodec struct {
	level    zstd.EncoderLevel
	encoders sync.Pool
	decoders sync.Pool
}

func newZstdCodec(level int) *zstdCodec {
	return &zstdCodec{level: zstd.EncoderLevelFromZstd(level)}
}

func (c *zstdCodec) String() string { return "ZSTD" }

func (c *zstdCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }

func (c *zstdCodec) Encode(dst, src []byte) ([]byte, error) {
	e, _ := c.encoders.Get().(*zstd.Encoder)
	if e == nil {
		var err error
		e, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(c.level),
			zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(pageWindow),
			zstd.WithLowerEncoderMem(true),
			zstd.WithZeroFrames(true),
			zstd.WithEncoderCRC(false),
		)
		if err != nil {
			return nil, err
		}
	}
	defer c.encoders.Put(e)
	return e.EncodeAll(src, dst[:0]), nil
}

func (c *zstdCodec) Decode(dst, src []byte) ([]byte, error) {
	d, _ := c.decoders.Get().(*zstd.Decoder)
	if d == nil {
		var err error
		d, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, err
		}
	}
	defer c.decoders.Put(d)
	return d.DecodeAll(src, dst[:0])
}
