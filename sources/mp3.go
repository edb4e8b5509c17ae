package sources

// mp3Header is the part of an MPEG audio frame header a preview needs.
type mp3Header struct {
	version    int // 1, 2, or 25 for MPEG 2.5
	layer      int // 1, 2, 3
	bitrate    int // bits per second
	sampleRate int
	channels   int
	frameLen   int // bytes, header included
	samples    int // samples per frame
}

var (
	mp3Rates = map[int][3]int{1: {44100, 48000, 32000}, 2: {22050, 24000, 16000}, 25: {11025, 12000, 8000}}
	// kbit/s by [version group][layer-1][index]; version group 0 is MPEG 1, 1 is MPEG 2 and 2.5.
	mp3Bitrates = [2][3][16]int{
		{
			{0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448, 0},
			{0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384, 0},
			{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0},
		},
		{
			{0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256, 0},
			{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0},
			{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160, 0},
		},
	}
)

// parseMP3Header parses the frame header at the start of b.
func parseMP3Header(b []byte) (mp3Header, bool) {
	var h mp3Header
	if len(b) < 4 || b[0] != 0xff || b[1]&0xe0 != 0xe0 {
		return h, false
	}
	switch (b[1] >> 3) & 3 {
	case 0:
		h.version = 25
	case 2:
		h.version = 2
	case 3:
		h.version = 1
	default:
		return h, false
	}
	layerBits := (b[1] >> 1) & 3
	if layerBits == 0 {
		return h, false
	}
	h.layer = 4 - int(layerBits)
	bi, si := int(b[2]>>4), int((b[2]>>2)&3)
	if bi == 0 || bi == 15 || si == 3 {
		return h, false
	}
	group := 0
	if h.version != 1 {
		group = 1
	}
	h.bitrate = mp3Bitrates[group][h.layer-1][bi] * 1000
	h.sampleRate = mp3Rates[h.version][si]
	padding := int((b[2] >> 1) & 1)
	h.channels = 2
	if b[3]>>6 == 3 {
		h.channels = 1
	}
	switch {
	case h.layer == 1:
		h.samples = 384
		h.frameLen = (12*h.bitrate/h.sampleRate + padding) * 4
	case h.layer == 3 && h.version != 1:
		h.samples = 576
		h.frameLen = 72*h.bitrate/h.sampleRate + padding
	default:
		h.samples = 1152
		h.frameLen = 144*h.bitrate/h.sampleRate + padding
	}
	return h, true
}
