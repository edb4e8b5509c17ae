package template

import (
	"fmt"

	"synth/schemas"
)

func init() {
	for _, t := range []struct {
		name  string
		build func(*bctx) ([]spec, error)
		mut   func(*schemas.Task) *schemas.Reference
	}{
		{"audio.trim", buildTrim, mutateCopyInput},
		{"audio.fade", buildFade, mutateCopyInput}, {"audio.volume", buildVolume, mutateCopyInput},
		{"audio.repeat", buildRepeat, mutateCopyInput}, {"audio.resample", buildResample, mutateCopyInput},
		{"audio.reverse", buildReverse, mutateCopyInput},
	} {
		register(&tmpl{Info: Info{Name: t.name, Version: 1, Category: schemas.CategoryMedia, Subcategory: GroupAudio, FileTypes: []string{"wav"}},
			inputs: 1, build: t.build, mutate: t.mut})
	}
	register(&tmpl{Info: Info{Name: "audio.duration", Version: 1, Category: schemas.CategoryMedia, Subcategory: GroupAudio, FileTypes: []string{"wav", "mp3"}},
		inputs: 1, build: buildDuration, mutate: mutateAnswer})
	register(&tmpl{Info: Info{Name: "audio.convert", Version: 1, Category: schemas.CategoryMedia, Subcategory: GroupAudio, FileTypes: []string{"wav", "mp3"}, Requires: []string{"pydub"}},
		inputs: 1, build: buildAudioConvert, mutate: mutateEmptyFile})
	register(&tmpl{Info: Info{Name: "audio.concat", Version: 1, Category: schemas.CategoryMedia, Subcategory: GroupAudio, FileTypes: []string{"wav"}},
		inputs: 2, build: buildConcat, mutate: mutateCopyInput})
}

// wavLoad is the reference's loading step: samples as int16 numpy arrays.
func wavLoad(c *bctx, i int, v string) string {
	return fmt.Sprintf(`import wave, os
import numpy as np
with wave.open(%s, 'rb') as w:
    params = w.getparams()
    %s = np.frombuffer(w.readframes(w.getnframes()), dtype='<i2').astype(np.float64)
rate = params.framerate
print(params)`, py(c.dpath(i)), v)
}

// wavSave writes the float array y (int16 scale, mono or interleaved) as 16-bit WAV.
const wavSave = `
os.makedirs('./output', exist_ok=True)
with wave.open('{OUT}.wav', 'wb') as w:
    w.setnchannels(params.nchannels)
    w.setsampwidth(2)
    w.setframerate(out_rate)
    w.writeframes(np.clip(y, -32768, 32767).astype('<i2').tobytes())
print(len(y) / out_rate / params.nchannels)`

// monoPCM16 reports whether the reference's plain numpy code fits file i.
func monoPCM16(c *bctx, i int) (wavInfo, bool) {
	w := c.wav(i)
	return w, w.bits == 16 && w.channels == 1 && w.seconds >= 1
}

func audioSpec(c *bctx, params string, en, zh []string, thought, code, answer, answerZh string, cs ...schemas.Check) []spec {
	return []spec{{
		params: params, en: en, zh: zh,
		steps: []schemas.RefStep{step("Read the WAV file into a numpy array.", wavLoad(c, 0, "x")),
			step(thought, "out_rate = rate\n"+code+wavSave)},
		answer: answer, answerZh: answerZh, checks: cs, outputs: []string{"{out}.wav"},
	}}
}

func near(d float64) *schemas.Range { return &schemas.Range{Min: max(0.001, d-0.05), Max: d + 0.05} }

// durationSetup is buildDuration's read of the duration into d, for
// recomputed.
func durationSetup(c *bctx) string {
	if c.typ(0) == "mp3" {
		return fmt.Sprintf("from pydub import AudioSegment\nd = AudioSegment.from_file(%s).duration_seconds", py(c.dpath(0)))
	}
	return fmt.Sprintf("import wave\nwith wave.open(%s) as w:\n    d = w.getnframes() / w.getframerate()", py(c.dpath(0)))
}

func buildDuration(c *bctx) ([]spec, error) {
	d := c.audioSeconds(0)
	code := fmt.Sprintf("import wave\nwith wave.open(%s) as w:\n    print(round(w.getnframes() / w.getframerate(), 2))", py(c.dpath(0)))
	if c.typ(0) == "mp3" {
		code = fmt.Sprintf("from pydub import AudioSegment\nprint(round(AudioSegment.from_file(%s).duration_seconds, 2))", py(c.dpath(0)))
	}
	return []spec{{
		params: "duration",
		en:     []string{"How long is this audio file, in seconds?", "What is the duration of the recording? Give it in seconds with two decimals."},
		zh:     []string{"这段音频有多长（秒）？", "请告诉我这个录音的时长，单位为秒，保留两位小数。"},
		steps:  []schemas.RefStep{step("Duration is the number of samples divided by the sample rate.", code)},
		answer: fmt.Sprintf("The audio lasts %s seconds.", num(d)), answerZh: fmt.Sprintf("音频时长为 %s 秒。", num(d)),
		checks: []schemas.Check{{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: round(d, 6), AbsTol: durationTol(c.typ(0))}},
			recomputed(durationSetup(c), recomp{"d", 0, durationTol(c.typ(0)), ""})},
	}}, nil
}

// durationTol is how far a duration answer may be from the expected one.
// A WAV's is exact to a sample: rounding to two decimals. An MP3 has two
// standard readings: the decoded length (pydub, through ffmpeg's decoder)
// and the container's duration (ffprobe, mutagen), which may count one
// frame of 1152 samples more or less: 0.026 s at 44.1 kHz, 0.036 s at
// 32 kHz. Either is accepted, with the rounding on top.
func durationTol(typ string) float64 {
	if typ == "mp3" {
		return 0.02 + 1152.0/32000
	}
	return 0.02
}

func buildAudioConvert(c *bctx) ([]spec, error) {
	d := c.audioSeconds(0)
	to := map[string]string{"wav": "mp3", "mp3": "wav"}[c.typ(0)]
	return []spec{{
		params: "convert:" + to,
		en:     []string{fmt.Sprintf("Convert this audio file to %s and save it as {OUT}.%s.", upper(to), to), fmt.Sprintf("I need the recording in %s format: write it to {OUT}.%s.", upper(to), to)},
		zh:     []string{fmt.Sprintf("请把这个音频文件转换为 %s 格式，保存为 {OUT}.%s。", upper(to), to), fmt.Sprintf("把录音转成 %s 格式，存为 {OUT}.%s。", upper(to), to)},
		steps: []schemas.RefStep{step("pydub (with ffmpeg) reads and writes both formats.", fmt.Sprintf(
			"import os\nfrom pydub import AudioSegment\nos.makedirs('./output', exist_ok=True)\na = AudioSegment.from_file(%s)\na.export('{OUT}.%s', format=%s)\nprint(a.duration_seconds)", py(c.dpath(0)), to, py(to)))},
		answer: fmt.Sprintf("The audio is saved as %s to {OUT}.%s.", upper(to), to), answerZh: fmt.Sprintf("音频已转换为 %s，保存到 {OUT}.%s。", upper(to), to),
		checks: []schemas.Check{
			fileCheck("{out}."+to, to, 100),
			{Kind: schemas.CheckAudio, Path: "{out}." + to, Duration: &schemas.Range{Min: max(0.001, d-0.2), Max: d + 0.2}},
			// The duration's tolerance is an encoder's padding, as long as a
			// short clip itself: the sound must be there from start to end.
			pyCheck("same_sound('{out}.%s', %s)", to, py("data/"+c.name(0))),
		},
		outputs: []string{"{out}." + to},
	}}, nil
}

func buildTrim(c *bctx) ([]spec, error) {
	w, ok := monoPCM16(c, 0)
	if !ok {
		return nil, nil
	}
	keep := float64(int(w.seconds/2*10)) / 10
	return audioSpec(c, fmt.Sprintf("trim:%v", keep),
		[]string{fmt.Sprintf("Keep only the first %v seconds of this audio and save it to {OUT}.wav.", keep), fmt.Sprintf("Trim the recording to its first %v s and write the clip as {OUT}.wav.", keep)},
		[]string{fmt.Sprintf("请只保留这段音频的前 %v 秒，保存到 {OUT}.wav。", keep), fmt.Sprintf("把录音裁剪为前 %v 秒，存为 {OUT}.wav。", keep)},
		"Slice the first seconds.", fmt.Sprintf("y = x[:int(%v * rate)]", keep),
		fmt.Sprintf("The first %v seconds are saved to {OUT}.wav.", keep), fmt.Sprintf("前 %v 秒已保存到 {OUT}.wav。", keep),
		schemas.Check{Kind: schemas.CheckAudio, Path: "{out}.wav", Duration: near(keep), ShorterThan: "data/" + c.name(0)},
		pyCheck(`
import numpy as np
a, ra = read_audio('{out}.wav')
b, rb = read_audio(%s)
n = min(len(a), len(b), ra // 2)
assert ra == rb and np.corrcoef(a[:n], b[:n])[0, 1] > 0.95, '{out}.wav does not start like the input'
`, py("data/"+c.name(0)))), nil
}

func buildFade(c *bctx) ([]spec, error) {
	w, ok := monoPCM16(c, 0)
	if !ok || w.seconds < 3 {
		return nil, nil
	}
	return audioSpec(c, "fade",
		[]string{"Add a 1-second fade-in at the start and a 1-second fade-out at the end of this audio, then save it to {OUT}.wav.",
			"Apply a fade in and fade out (1 s each, linear) to the clip and save the result as {OUT}.wav."},
		[]string{"请给这段音频加上开头 1 秒的淡入和结尾 1 秒的淡出效果，保存到 {OUT}.wav。", "为音频添加淡入淡出（各 1 秒，线性），结果存为 {OUT}.wav。"},
		"Multiply by linear ramps at both ends.",
		"y = x.copy()\nn = int(rate)\nramp = np.linspace(0, 1, n)\ny[:n] *= ramp\ny[-n:] *= ramp[::-1]",
		"The audio with 1 s fades is saved to {OUT}.wav.", "已添加 1 秒淡入淡出，保存到 {OUT}.wav。",
		schemas.Check{Kind: schemas.CheckAudio, Path: "{out}.wav", Duration: near(w.seconds)},
		pyCheck(`
import numpy as np
a, r = read_audio('{out}.wav')
b, _ = read_audio(%s)
rms = lambda v: float(np.sqrt(np.mean(v * v)))
q = int(r)
mid = (rms(a[len(a)//2 - q//2:len(a)//2 + q//2]) + 1e-9) / (rms(b[len(b)//2 - q//2:len(b)//2 + q//2]) + 1e-9)
assert 0.8 < mid < 1.25, 'the middle of {out}.wav changed level (%%.2fx)' %% mid
m = audio_match('{out}.wav', b, r)
assert m > 0.8, '{out}.wav is not the input with fades (correlation %%.2f)' %% m
seen = 0
for name, x, y in (('fade in', a[:q], b[:q]), ('fade out', a[-q:], b[-q:])):
    if rms(y) < 1e-3:
        continue
    seen += 1
    k = rms(x) / rms(y)
    assert k < 0.75, '{out}.wav has no %%s: its 1 s keeps %%.0f%%%% of the level' %% (name, k * 100)
assert seen, 'the input is silent at both ends: a fade cannot be checked'
`, py("data/"+c.name(0)))), nil
}

func buildVolume(c *bctx) ([]spec, error) {
	if _, ok := monoPCM16(c, 0); !ok {
		return nil, nil
	}
	up := c.rng.IntN(2) == 0
	if up {
		return audioSpec(c, "volume:up",
			[]string{"Make this audio louder by 6 dB (about double the amplitude) and save it to {OUT}.wav.", "Increase the volume of the recording by 6 dB; save as {OUT}.wav."},
			[]string{"请把这段音频的音量提高 6 dB（振幅约为原来的两倍），保存到 {OUT}.wav。", "将录音音量调大 6 分贝，存为 {OUT}.wav。"},
			"Scale the samples by 10^(6/20), clipping to the 16-bit range.", "y = x * 10 ** (6 / 20)",
			"The louder audio is saved to {OUT}.wav.", "音量提高后的音频已保存到 {OUT}.wav。",
			schemas.Check{Kind: schemas.CheckAudio, Path: "{out}.wav", LouderThan: "data/" + c.name(0)}, volumeCheck(c, 6)), nil
	}
	return audioSpec(c, "volume:down",
		[]string{"Reduce the volume of this audio by half (-6 dB) and save it to {OUT}.wav.", "Make the recording quieter by 6 dB; save as {OUT}.wav."},
		[]string{"请把这段音频的音量降低一半（-6 dB），保存到 {OUT}.wav。", "将录音音量调小 6 分贝，存为 {OUT}.wav。"},
		"Scale the samples by 10^(-6/20).", "y = x * 10 ** (-6 / 20)",
		"The quieter audio is saved to {OUT}.wav.", "音量降低后的音频已保存到 {OUT}.wav。",
		schemas.Check{Kind: schemas.CheckAudio, Path: "{out}.wav", QuieterThan: "data/" + c.name(0)}, volumeCheck(c, -6)), nil
}

// volumeCheck: the output is the input (correlation) at a level changed by
// about db (within 3 dB; clipping may cost a little of a gain).
func volumeCheck(c *bctx, db int) schemas.Check {
	return pyCheck(`
x, r = read_audio(%s)
m = audio_match('{out}.wav', x, r)
assert m > 0.9, '{out}.wav is not the input at another volume (correlation %%.2f)' %% m
y, _ = read_audio('{out}.wav')
d = level_db(y) - level_db(x)
assert abs(d - (%d)) <= 3, '{out}.wav changed the level by %%.1f dB, expected %d dB' %% d
`, py("data/"+c.name(0)), db, db)
}

func buildRepeat(c *bctx) ([]spec, error) {
	w, ok := monoPCM16(c, 0)
	if !ok {
		return nil, nil
	}
	return audioSpec(c, "repeat",
		[]string{"Loop this audio so it plays twice in a row, and save it to {OUT}.wav.", "Concatenate the clip with itself (play it two times) and write {OUT}.wav."},
		[]string{"请把这段音频首尾相接重复两遍，保存到 {OUT}.wav。", "将音频与自身拼接（连续播放两次），存为 {OUT}.wav。"},
		"Concatenate the samples with themselves.", "y = np.concatenate([x, x])",
		fmt.Sprintf("The %s s looped audio is saved to {OUT}.wav.", num(2*w.seconds)), fmt.Sprintf("重复两遍后的音频（%s 秒）已保存到 {OUT}.wav。", num(2*w.seconds)),
		schemas.Check{Kind: schemas.CheckAudio, Path: "{out}.wav", Duration: near(2 * w.seconds)},
		pyCheck(`
import numpy as np
x, r = read_audio(%s)
m = audio_match('{out}.wav', np.concatenate([x, x]), r)
assert m > 0.95, '{out}.wav is not the input played twice (correlation %%.2f)' %% m
`, py("data/"+c.name(0)))), nil
}

func buildResample(c *bctx) ([]spec, error) {
	w, ok := monoPCM16(c, 0)
	if !ok || w.rate == 8000 {
		return nil, nil
	}
	return audioSpec(c, "resample:8000",
		[]string{fmt.Sprintf("Resample this %d Hz audio to 8000 Hz, keeping its length, and save it to {OUT}.wav.", w.rate), "Convert the recording to a sample rate of 8 kHz and save as {OUT}.wav."},
		[]string{fmt.Sprintf("请把这段 %d Hz 的音频重采样为 8000 Hz（时长不变），保存到 {OUT}.wav。", w.rate), "将录音的采样率转换为 8 kHz，存为 {OUT}.wav。"},
		"Interpolate onto an 8 kHz time grid.",
		"out_rate = 8000\nt_old = np.arange(len(x)) / rate\nt_new = np.arange(int(len(x) * out_rate / rate)) / out_rate\ny = np.interp(t_new, t_old, x)",
		"The 8 kHz audio is saved to {OUT}.wav.", "8 kHz 的音频已保存到 {OUT}.wav。",
		schemas.Check{Kind: schemas.CheckAudio, Path: "{out}.wav", Duration: near(w.seconds)},
		pyCheck("import wave\nwith wave.open('{out}.wav') as w:\n    r = w.getframerate()\nassert r == 8000, '{out}.wav has %%d Hz, expected 8000' %% r"),
		pyCheck(`
x, r = read_audio(%s)
m = audio_match('{out}.wav', x, r)
assert m > 0.9, '{out}.wav does not sound like the input (correlation %%.2f)' %% m
`, py("data/"+c.name(0)))), nil
}

func buildReverse(c *bctx) ([]spec, error) {
	w, ok := monoPCM16(c, 0)
	if !ok {
		return nil, nil
	}
	return audioSpec(c, "reverse",
		[]string{"Reverse this audio so it plays backwards and save it to {OUT}.wav.", "Play the clip backwards: write the reversed audio to {OUT}.wav."},
		[]string{"请把这段音频倒放（反转），保存到 {OUT}.wav。", "将音频反向播放，结果存为 {OUT}.wav。"},
		"Reverse the sample order.", "y = x[::-1]",
		"The reversed audio is saved to {OUT}.wav.", "倒放后的音频已保存到 {OUT}.wav。",
		schemas.Check{Kind: schemas.CheckAudio, Path: "{out}.wav", Duration: near(w.seconds)},
		pyCheck(`
import numpy as np
a, _ = read_audio('{out}.wav')
b, _ = read_audio(%s)
n = min(len(a), len(b))
r = np.corrcoef(a[:n], b[::-1][:n])[0, 1]
assert r > 0.95, '{out}.wav is not the input reversed (correlation %%.2f)' %% r
`, py("data/"+c.name(0)))), nil
}

func buildConcat(c *bctx) ([]spec, error) {
	a, ok1 := monoPCM16(c, 0)
	b, ok2 := monoPCM16(c, 1)
	if !ok1 || !ok2 || a.rate != b.rate {
		return nil, nil
	}
	d := a.seconds + b.seconds
	return []spec{{
		params: "concat",
		en: []string{fmt.Sprintf("Join the two audio files: %s first, then %s. Save the combined audio to {OUT}.wav.", c.name(0), c.name(1)),
			fmt.Sprintf("Concatenate %s and %s (in that order) into one file, {OUT}.wav.", c.name(0), c.name(1))},
		zh: []string{fmt.Sprintf("请把两段音频拼接起来：先 %s，再 %s，保存到 {OUT}.wav。", c.name(0), c.name(1)),
			fmt.Sprintf("将 %s 和 %s 按顺序合并成一个文件 {OUT}.wav。", c.name(0), c.name(1))},
		steps: []schemas.RefStep{
			step("Read both files.", wavLoad(c, 0, "x")+"\n"+fmt.Sprintf("with wave.open(%s, 'rb') as w:\n    x2 = np.frombuffer(w.readframes(w.getnframes()), dtype='<i2').astype(np.float64)", py(c.dpath(1)))),
			step("Concatenate and save.", "out_rate = rate\ny = np.concatenate([x, x2])"+wavSave),
		},
		answer: fmt.Sprintf("The combined audio (%s s) is saved to {OUT}.wav.", num(d)), answerZh: fmt.Sprintf("合并后的音频（%s 秒）已保存到 {OUT}.wav。", num(d)),
		checks: []schemas.Check{{Kind: schemas.CheckAudio, Path: "{out}.wav", Duration: near(d)},
			pyCheck(`
import numpy as np
a, r = read_audio(%s)
b, _ = read_audio(%s)
m = audio_match('{out}.wav', np.concatenate([a, b]), r)
assert m > 0.95, '{out}.wav is not the first file followed by the second (correlation %%.2f)' %% m
`, py("data/"+c.name(0)), py("data/"+c.name(1)))},
		outputs: []string{"{out}.wav"},
	}}, nil
}
