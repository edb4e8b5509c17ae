package sources

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"synth/schemas"
)

// previewWAV reads a WAV's format chunk and data size. A data chunk that
// claims more bytes than the file has (a cut recording) is measured by what
// is there.
func previewWAV(path string) (*schemas.Preview, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	var hdr [12]byte
	if _, err := io.ReadFull(f, hdr[:]); err != nil {
		return nil, fmt.Errorf("riff header: %w", err)
	}
	order := binary.ByteOrder(binary.LittleEndian)
	if string(hdr[:4]) == "RIFX" {
		order = binary.BigEndian
	}
	var channels, rate, byteRate, blockAlign int
	pos := int64(12)
	for {
		var ch [8]byte
		if _, err := io.ReadFull(f, ch[:]); err != nil {
			return nil, errors.New("no data chunk")
		}
		pos += 8
		size := int64(order.Uint32(ch[4:]))
		switch string(ch[:4]) {
		case "fmt ":
			if size < 16 {
				return nil, errors.New("short fmt chunk")
			}
			var fm [16]byte
			if _, err := io.ReadFull(f, fm[:]); err != nil {
				return nil, fmt.Errorf("fmt chunk: %w", err)
			}
			channels = int(order.Uint16(fm[2:]))
			rate = int(order.Uint32(fm[4:]))
			byteRate = int(order.Uint32(fm[8:]))
			blockAlign = int(order.Uint16(fm[12:]))
			if _, err := f.Seek(pos+size+size&1, io.SeekStart); err != nil {
				return nil, err
			}
		case "data":
			if rate == 0 || channels == 0 {
				return nil, errors.New("data chunk before fmt chunk")
			}
			if avail := st.Size() - pos; size > avail || size == 0xffffffff {
				size = avail
			}
			if byteRate == 0 {
				byteRate = rate * blockAlign
			}
			p := &schemas.Preview{SampleRate: rate, Channels: channels}
			if byteRate > 0 {
				p.DurationS = round3(float64(size) / float64(byteRate))
			}
			return p, nil
		default:
			if _, err := f.Seek(pos+size+size&1, io.SeekStart); err != nil {
				return nil, err
			}
		}
		pos += size + size&1
	}
}

// previewMP3 reads the first frame's rate and channels; the duration comes
// from a Xing/Info or VBRI frame count when there is one, else from the
// file size at the first frame's bit rate (exact for constant bit rate).
func previewMP3(path string) (*schemas.Preview, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	b, err := readHead(path, HeadSize)
	if err != nil {
		return nil, err
	}
	start := 0
	if len(b) >= 10 && string(b[:3]) == "ID3" {
		start = 10 + (int(b[6])<<21 | int(b[7])<<14 | int(b[8])<<7 | int(b[9]))
		if start+4 > len(b) {
			buf := make([]byte, 4096)
			n, _ := f.ReadAt(buf, int64(start))
			b, start = buf[:n], 0
		}
	}
	// Skip padding to the first frame sync.
	for start+4 <= len(b) && !(b[start] == 0xff && b[start+1]&0xe0 == 0xe0) {
		start++
	}
	h, ok := parseMP3Header(b[start:])
	if !ok {
		return nil, errors.New("no mpeg audio frame")
	}
	p := &schemas.Preview{SampleRate: h.sampleRate, Channels: h.channels}
	if frames := mp3FrameCount(b[start:], h); frames > 0 {
		p.DurationS = round3(float64(frames) * float64(h.samples) / float64(h.sampleRate))
		return p, nil
	}
	audio := st.Size() - int64(start)
	if end := make([]byte, 3); st.Size() > 128 {
		if _, err := f.ReadAt(end, st.Size()-128); err == nil && string(end) == "TAG" {
			audio -= 128
		}
	}
	p.DurationS = round3(float64(audio) * 8 / float64(h.bitrate))
	return p, nil
}

// mp3FrameCount reads the frame count of a Xing/Info or VBRI header in the
// first frame, or returns 0.
func mp3FrameCount(frame []byte, h mp3Header) int {
	side := 32
	switch {
	case h.version == 1 && h.channels == 1:
		side = 17
	case h.version != 1 && h.channels == 2:
		side = 17
	case h.version != 1:
		side = 9
	}
	if off := 4 + side; len(frame) >= off+12 {
		tag := string(frame[off : off+4])
		if (tag == "Xing" || tag == "Info") && binary.BigEndian.Uint32(frame[off+4:])&1 == 1 {
			return int(binary.BigEndian.Uint32(frame[off+8:]))
		}
	}
	if off := 4 + 32; len(frame) >= off+18 && string(frame[off:off+4]) == "VBRI" {
		return int(binary.BigEndian.Uint32(frame[off+14:]))
	}
	return 0
}

// previewFLAC reads a FLAC's STREAMINFO block.
func previewFLAC(path string) (*schemas.Preview, error) {
	b, err := readHead(path, 42)
	if err != nil {
		return nil, err
	}
	if len(b) < 42 || b[4]&0x7f != 0 {
		return nil, errors.New("no STREAMINFO block")
	}
	si := b[8:]
	v := binary.BigEndian.Uint64(si[10:18])
	rate := int(v >> 44)
	channels := int((v>>41)&7) + 1
	total := v & (1<<36 - 1)
	p := &schemas.Preview{SampleRate: rate, Channels: channels}
	if rate > 0 {
		p.DurationS = round3(float64(total) / float64(rate))
	}
	return p, nil
}

// previewMP4 reads an MP4 or QuickTime file's duration from moov/mvhd.
func previewMP4(path string) (*schemas.Preview, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	moov, size, err := findBox(f, 0, st.Size(), "moov")
	if err != nil {
		return nil, err
	}
	mvhd, _, err := findBox(f, moov, moov+size, "mvhd")
	if err != nil {
		return nil, err
	}
	var b [32]byte
	if _, err := f.ReadAt(b[:], mvhd); err != nil {
		return nil, fmt.Errorf("mvhd: %w", err)
	}
	var scale, dur uint64
	if b[0] == 1 {
		scale = uint64(binary.BigEndian.Uint32(b[20:]))
		dur = binary.BigEndian.Uint64(b[24:])
	} else {
		scale = uint64(binary.BigEndian.Uint32(b[12:]))
		dur = uint64(binary.BigEndian.Uint32(b[16:]))
	}
	p := &schemas.Preview{}
	if scale > 0 {
		p.DurationS = round3(float64(dur) / float64(scale))
	}
	return p, nil
}

// findBox finds a box of type typ among the boxes in [from, to) and returns
// the offset of its payload and the payload's size.
func findBox(f io.ReaderAt, from, to int64, typ string) (int64, int64, error) {
	for pos := from; pos+8 <= to; {
		var h [16]byte
		if _, err := f.ReadAt(h[:8], pos); err != nil {
			return 0, 0, fmt.Errorf("box at %d: %w", pos, err)
		}
		size, hdr := int64(binary.BigEndian.Uint32(h[:4])), int64(8)
		switch size {
		case 1:
			if _, err := f.ReadAt(h[8:16], pos+8); err != nil {
				return 0, 0, err
			}
			size, hdr = int64(binary.BigEndian.Uint64(h[8:16])), 16
		case 0:
			size = to - pos
		}
		if size < hdr {
			return 0, 0, fmt.Errorf("bad box size at %d", pos)
		}
		if string(h[4:8]) == typ {
			return pos + hdr, size - hdr, nil
		}
		pos += size
	}
	return 0, 0, fmt.Errorf("no %s box", typ)
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
