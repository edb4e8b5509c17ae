package template

import (
	"fmt"

	"synth/schemas"
)

var imageTypes = []string{"png", "jpeg", "gif", "webp", "bmp"}

func init() {
	for _, t := range []struct {
		name  string
		build func(*bctx) ([]spec, error)
		mut   func(*schemas.Task) *schemas.Reference
	}{
		{"image.rotate", buildRotate, mutateCode("im.rotate(-90,", "im.rotate(90,", "im.rotate(90,", "im.rotate(-90,", "im.rotate(180,", "im.rotate(0,")},
		{"image.flip", buildFlip, mutateCode("ImageOps.mirror(im)", "ImageOps.flip(im)", "ImageOps.flip(im)", "ImageOps.mirror(im)")},
		{"image.crop", buildCrop, mutateShiftCrop}, {"image.resize", buildResize, mutateCopyInput},
		{"image.grayscale", buildGray, mutateCopyInput}, {"image.brightness", buildBrightness, mutateCopyInput},
		{"image.contrast", buildContrast, mutateCopyInput}, {"image.blur", buildBlur, mutateCopyInput},
		{"image.sharpen", buildSharpen, mutateCopyInput}, {"image.mirrorconcat", buildMirrorConcat, mutateCopyInput},
		{"image.caption", buildCaption, mutateCopyInput}, {"image.convert", buildConvert, nil},
		{"image.size", buildImageSize, mutateAnswer},
	} {
		register(&tmpl{Info: Info{Name: t.name, Version: 1, Category: schemas.CategoryMedia, Subcategory: GroupImage, FileTypes: imageTypes},
			inputs: 1, build: t.build, mutate: t.mut})
	}
	register(&tmpl{Info: Info{Name: "image.gifframes", Version: 1, Category: schemas.CategoryMedia, Subcategory: GroupImage, FileTypes: []string{"gif"}},
		inputs: 1, build: buildGIFFrames, mutate: mutateAnswer})
	register(&tmpl{Info: Info{Name: "image.concat", Version: 1, Category: schemas.CategoryMedia, Subcategory: GroupImage, FileTypes: imageTypes},
		inputs: 2, build: buildConcat2, mutate: mutateCopyInput})
	register(&tmpl{Info: Info{Name: "image.qrcode", Version: 1, Category: schemas.CategoryMedia, Subcategory: GroupImage, Requires: []string{"qrcode"}},
		inputs: 0, build: repeat(1, buildQR), mutate: mutateEmptyFile})
}

// openStep opens image i with PIL, shows its size, mode and whether it is
// transparent, and defines flat: the image as a viewer shows it, in RGB,
// transparency over white (what the checks compare; the hidden colour of
// a transparent pixel, often black, never counts).
func openStep(c *bctx, i int) schemas.RefStep {
	return step("Open the image and check its size, mode and transparency.",
		fmt.Sprintf(`from PIL import Image, ImageOps, ImageEnhance, ImageFilter
import os
im = Image.open(%s)

def flat(im):
    if im.mode in ('RGBA', 'LA', 'PA') or 'transparency' in im.info:
        im = im.convert('RGBA')
        return Image.alpha_composite(Image.new('RGBA', im.size, (255, 255, 255, 255)), im).convert('RGB')
    return im.convert('RGB')

print(im.size, im.mode, 'transparent' if im.mode in ('RGBA', 'LA', 'PA') or 'transparency' in im.info else 'opaque')`, py(c.dpath(i))))
}

// saveStep runs the edit code (which sets out) and saves it as PNG.
func saveStep(thought, code string) schemas.RefStep {
	return step(thought, code+"\nos.makedirs('./output', exist_ok=True)\nout.save('{OUT}.png')\nprint(out.size, out.mode)")
}

func imgSpec(c *bctx, params string, en, zh []string, thought, code, answer, answerZh string, cs ...schemas.Check) []spec {
	return []spec{{
		params: params, en: en, zh: zh,
		steps:  []schemas.RefStep{openStep(c, 0), saveStep(thought, code)},
		answer: answer, answerZh: answerZh, checks: cs, outputs: []string{"{out}.png"},
	}}
}

func cmp(c *bctx, transform string, min float64) *schemas.ImageCompare {
	return &schemas.ImageCompare{Ref: "data/" + c.name(0), Transform: transform, MinSimilarity: min}
}

func buildRotate(c *bctx) ([]spec, error) {
	w, h := c.imageSize(0)
	opts := []struct {
		deg      int
		en, zh   string
		swap     bool
		pilAngle int
	}{{90, "90 degrees clockwise", "顺时针旋转 90 度", true, -90}, {90, "90 degrees counterclockwise", "逆时针旋转 90 度", true, 90}, {180, "180 degrees", "旋转 180 度", false, 180}}
	o := opts[c.rng.IntN(len(opts))]
	ow, oh := w, h
	if o.swap {
		ow, oh = h, w
	}
	return imgSpec(c, fmt.Sprintf("rotate:%d", o.pilAngle),
		[]string{fmt.Sprintf("Rotate this image %s and save the result to {OUT}.png.", o.en), fmt.Sprintf("Please turn the picture %s. Save it as {OUT}.png.", o.en)},
		[]string{fmt.Sprintf("请把这张图片%s，保存到 {OUT}.png。", o.zh), fmt.Sprintf("将图像%s后保存为 {OUT}.png。", o.zh)},
		"Rotate with expand so nothing is cut off (PIL angles are counterclockwise).",
		fmt.Sprintf("out = im.rotate(%d, expand=True)", o.pilAngle),
		fmt.Sprintf("The image was rotated %s and saved to {OUT}.png (%dx%d).", o.en, ow, oh),
		fmt.Sprintf("图片已%s，保存为 {OUT}.png（%dx%d）。", o.zh, ow, oh),
		schemas.Check{Kind: schemas.CheckImage, Path: "{out}.png", Width: ip(ow), Height: ip(oh), Compare: cmp(c, fmt.Sprintf("rotate:%d", o.pilAngle), 0.95)}), nil
}

func buildFlip(c *bctx) ([]spec, error) {
	horiz := c.rng.IntN(2) == 0
	// A flip of an image that is its own mirror along that axis is the
	// input again, which a copy of the input would pass: take the other
	// axis, or no task when the image is symmetric both ways.
	if img := c.decodeImage(0); img != nil {
		if mirrorCorrelation(img, horiz) >= maxMirrorCorrelation {
			horiz = !horiz
			if mirrorCorrelation(img, horiz) >= maxMirrorCorrelation {
				return nil, nil
			}
		}
	}
	en, zh, code, tr := "horizontally (left to right, a mirror image)", "水平翻转（左右镜像）", "out = ImageOps.mirror(im)", "flip_h"
	if !horiz {
		en, zh, code, tr = "vertically (upside down)", "垂直翻转（上下颠倒）", "out = ImageOps.flip(im)", "flip_v"
	}
	w, h := c.imageSize(0)
	return imgSpec(c, tr,
		[]string{fmt.Sprintf("Flip the image %s and save it to {OUT}.png.", en), fmt.Sprintf("Can you flip this picture %s? Output: {OUT}.png", en)},
		[]string{fmt.Sprintf("请将图片%s，并保存到 {OUT}.png。", zh), fmt.Sprintf("把这张图%s，结果存为 {OUT}.png。", zh)},
		"Flip the image.", code,
		fmt.Sprintf("The image was flipped %s; saved to {OUT}.png.", en), fmt.Sprintf("图片已%s，保存到 {OUT}.png。", zh),
		schemas.Check{Kind: schemas.CheckImage, Path: "{out}.png", Width: ip(w), Height: ip(h), Compare: cmp(c, tr, 0.95)}), nil
}

func buildCrop(c *bctx) ([]spec, error) {
	w, h := c.imageSize(0)
	if w < 40 || h < 40 {
		return nil, nil
	}
	cw, ch := w/2, h/2
	// Of a few random boxes, keep the busiest, so the crop holds something.
	img := c.decodeImage(0)
	x, y, best := 0, 0, -1.0
	for k := 0; k < 8; k++ {
		bx, by := c.rng.IntN(w-cw+1), c.rng.IntN(h-ch+1)
		v := 0.0
		if img != nil {
			v = boxVariance(img, bx, by, cw, ch)
		}
		if v > best {
			x, y, best = bx, by, v
		}
	}
	tr := fmt.Sprintf("crop:%d,%d,%d,%d", x, y, cw, ch)
	return imgSpec(c, tr,
		[]string{
			fmt.Sprintf("Crop the image to the region that starts at x=%d, y=%d and is %d pixels wide and %d pixels high. Save it to {OUT}.png.", x, y, cw, ch),
			fmt.Sprintf("Cut out the %dx%d area whose top-left corner is at (%d, %d) and save the crop as {OUT}.png.", cw, ch, x, y),
		},
		[]string{
			fmt.Sprintf("请裁剪图片：从左上角坐标 (%d, %d) 开始，宽 %d 像素、高 %d 像素，保存到 {OUT}.png。", x, y, cw, ch),
			fmt.Sprintf("截取图像中左上角在 (%d, %d)、大小为 %dx%d 的区域，存为 {OUT}.png。", x, y, cw, ch),
		},
		"Crop with a (left, upper, right, lower) box.", fmt.Sprintf("out = im.crop((%d, %d, %d, %d))", x, y, x+cw, y+ch),
		fmt.Sprintf("Cropped the %dx%d region at (%d, %d); saved to {OUT}.png.", cw, ch, x, y),
		fmt.Sprintf("已裁剪出 (%d, %d) 处 %dx%d 的区域，保存到 {OUT}.png。", x, y, cw, ch),
		schemas.Check{Kind: schemas.CheckImage, Path: "{out}.png", Width: ip(cw), Height: ip(ch), Compare: cmp(c, tr, 0.98)}), nil
}

func buildResize(c *bctx) ([]spec, error) {
	w, h := c.imageSize(0)
	sizes := [][2]int{{224, 224}, {w / 2, h / 2}, {128, 128}, {w * 3 / 2, h * 3 / 2}}
	s := sizes[c.rng.IntN(len(sizes))]
	if s[0] < 8 || s[1] < 8 || (s[0] == w && s[1] == h) {
		return nil, nil
	}
	tr := fmt.Sprintf("resize:%d,%d", s[0], s[1])
	return imgSpec(c, tr,
		[]string{fmt.Sprintf("Resize the image to %dx%d pixels (width x height) and save it as {OUT}.png.", s[0], s[1]),
			fmt.Sprintf("I need this picture at exactly %d by %d pixels. Save the resized image to {OUT}.png.", s[0], s[1])},
		[]string{fmt.Sprintf("请把图片尺寸调整为 %dx%d（宽x高），保存到 {OUT}.png。", s[0], s[1]),
			fmt.Sprintf("将图像缩放到宽 %d、高 %d 像素，结果存为 {OUT}.png。", s[0], s[1])},
		"Resize to the exact size.", fmt.Sprintf("out = im.resize((%d, %d))", s[0], s[1]),
		fmt.Sprintf("Resized to %dx%d; saved to {OUT}.png.", s[0], s[1]), fmt.Sprintf("已调整为 %dx%d，保存到 {OUT}.png。", s[0], s[1]),
		schemas.Check{Kind: schemas.CheckImage, Path: "{out}.png", Width: ip(s[0]), Height: ip(s[1]), Compare: cmp(c, tr, 0.9)}), nil
}

func buildGray(c *bctx) ([]spec, error) {
	return imgSpec(c, "grayscale",
		[]string{"Convert this image to grayscale and save it to {OUT}.png.", "Make the picture black and white (grayscale), then save it as {OUT}.png."},
		[]string{"请把这张图片转换为灰度图，保存到 {OUT}.png。", "将图像转成黑白（灰度）图片，存为 {OUT}.png。"},
		"Convert to mode L.", "out = im.convert('L')",
		"The grayscale image is saved to {OUT}.png.", "灰度图已保存到 {OUT}.png。",
		schemas.Check{Kind: schemas.CheckImage, Path: "{out}.png", Mode: "L", Compare: cmp(c, "grayscale", 0.9)}), nil
}

func buildBrightness(c *bctx) ([]spec, error) {
	if c.bilevel(0) {
		return nil, nil // black and white: nothing to brighten, stretch or sharpen
	}
	f := []float64{1.3, 1.5}[c.rng.IntN(2)]
	if c.enhanceMoves(0, "brightness", f) < minEnhanceMove {
		return nil, nil // nearly black and white: brightening hardly shows
	}
	pct := int(f*100) - 100
	return imgSpec(c, fmt.Sprintf("brightness:%v", f),
		[]string{fmt.Sprintf("Increase the brightness of the image by %d%% and save it to {OUT}.png.", pct), fmt.Sprintf("The photo is too dark. Make it about %d%% brighter and save it as {OUT}.png.", pct)},
		[]string{fmt.Sprintf("请把图片亮度提高 %d%%，保存到 {OUT}.png。", pct), fmt.Sprintf("这张图太暗了，调亮约 %d%% 后存为 {OUT}.png。", pct)},
		"Use ImageEnhance.Brightness.", fmt.Sprintf("out = ImageEnhance.Brightness(flat(im)).enhance(%v)", f),
		fmt.Sprintf("The image is %d%% brighter; saved to {OUT}.png.", pct), fmt.Sprintf("亮度已提高 %d%%，保存到 {OUT}.png。", pct),
		schemas.Check{Kind: schemas.CheckImage, Path: "{out}.png"}, enhancedAsAsked(c, "brightness", f)), nil
}

// similarTo is a python check that the output keeps the input's content.
func similarTo(c *bctx, min float64) string {
	return fmt.Sprintf("s = similarity(open_image('{out}.png'), open_image(%s))\nassert s >= %v, '{out}.png no longer looks like the input (similarity %%.2f)' %% s", py("data/"+c.name(0)), min)
}

func buildContrast(c *bctx) ([]spec, error) {
	if c.bilevel(0) {
		return nil, nil // black and white: nothing to brighten, stretch or sharpen
	}
	if c.enhanceMoves(0, "contrast", 1.8) < minEnhanceMove {
		return nil, nil // nearly black and white: more contrast hardly shows
	}
	return imgSpec(c, "contrast",
		[]string{"Enhance the contrast of this image (factor 1.8) and save it to {OUT}.png.", "Boost the picture's contrast by a factor of 1.8 and write it to {OUT}.png."},
		[]string{"请将图片对比度增强到原来的 1.8 倍，保存到 {OUT}.png。", "提高这张图片的对比度（系数 1.8），结果保存为 {OUT}.png。"},
		"Use ImageEnhance.Contrast.", "out = ImageEnhance.Contrast(flat(im)).enhance(1.8)",
		"Contrast enhanced by 1.8; saved to {OUT}.png.", "对比度已增强 1.8 倍，保存到 {OUT}.png。",
		schemas.Check{Kind: schemas.CheckImage, Path: "{out}.png"}, enhancedAsAsked(c, "contrast", 1.8)), nil
}

func buildBlur(c *bctx) ([]spec, error) {
	r := 2 + c.rng.IntN(3)
	return imgSpec(c, fmt.Sprintf("blur:%d", r),
		[]string{fmt.Sprintf("Apply a Gaussian blur with radius %d to the image and save it to {OUT}.png.", r), fmt.Sprintf("Blur this picture (Gaussian, radius %d) and save it as {OUT}.png.", r)},
		[]string{fmt.Sprintf("请对图片做半径为 %d 的高斯模糊，保存到 {OUT}.png。", r), fmt.Sprintf("给这张图加上高斯模糊（半径 %d），存为 {OUT}.png。", r)},
		"Use ImageFilter.GaussianBlur.", fmt.Sprintf("out = flat(im).filter(ImageFilter.GaussianBlur(%d))", r),
		"The blurred image is saved to {OUT}.png.", "模糊后的图片已保存到 {OUT}.png。",
		pyCheck("a, b = sharpness('{out}.png'), sharpness(%s)\nassert a < b * 0.7, '{out}.png is not blurred (sharpness %%.1f vs %%.1f)' %% (a, b)\n%s", py("data/"+c.name(0)), similarTo(c, 0.8))), nil
}

func buildSharpen(c *bctx) ([]spec, error) {
	if c.bilevel(0) {
		return nil, nil // black and white: nothing to brighten, stretch or sharpen
	}
	return imgSpec(c, "sharpen",
		[]string{"Sharpen the image and save it to {OUT}.png.", "Make this picture look crisper with a sharpening filter; save it as {OUT}.png."},
		[]string{"请对图片进行锐化处理，保存到 {OUT}.png。", "用锐化滤镜让这张图更清晰，结果存为 {OUT}.png。"},
		"Use ImageFilter.SHARPEN.", "out = flat(im).filter(ImageFilter.SHARPEN)",
		"The sharpened image is saved to {OUT}.png.", "锐化后的图片已保存到 {OUT}.png。",
		schemas.Check{Kind: schemas.CheckImage, Path: "{out}.png", SharperThan: "data/" + c.name(0), Compare: cmp(c, "", 0.8)}), nil
}

func buildMirrorConcat(c *bctx) ([]spec, error) {
	w, h := c.imageSize(0)
	return imgSpec(c, "mirrorconcat",
		[]string{"Put the image and its horizontally mirrored copy side by side (original on the left) and save the combined picture to {OUT}.png.",
			"Concatenate the picture with a left-right flipped version of itself horizontally; the original goes first. Save to {OUT}.png."},
		[]string{"把原图和它的水平镜像左右拼接在一起（原图在左），保存到 {OUT}.png。", "将图片与其左右翻转后的副本横向拼接（原图在前），结果存为 {OUT}.png。"},
		"Paste both into a canvas twice as wide.",
		"im = flat(im)\nout = Image.new('RGB', (im.width * 2, im.height))\nout.paste(im, (0, 0))\nout.paste(ImageOps.mirror(im), (im.width, 0))",
		fmt.Sprintf("The combined %dx%d image is saved to {OUT}.png.", 2*w, h), fmt.Sprintf("拼接后的 %dx%d 图片已保存到 {OUT}.png。", 2*w, h),
		schemas.Check{Kind: schemas.CheckImage, Path: "{out}.png", Width: ip(2 * w), Height: ip(h)},
		pyCheck(`
im = open_image('{out}.png')
src = open_image(%[1]s)
w = im.width // 2
left, right = im.crop((0, 0, w, im.height)), im.crop((w, 0, im.width, im.height))
s1, s2 = similarity(left, src), similarity(right, apply_transform(src, 'flip_h'))
assert s1 >= 0.9, 'the left half of {out}.png is not the original (similarity %%.2f)' %% s1
assert s2 >= 0.9, 'the right half of {out}.png is not the mirrored original (similarity %%.2f)' %% s2
`, py("data/"+c.name(0)))), nil
}

func buildCaption(c *bctx) ([]spec, error) {
	if w, h := c.imageSize(0); w < 64 || h < 48 {
		return nil, nil // an icon has no room for a caption
	}
	text := []string{"Hello World", "Summer 2024", "Draft", "Sample"}[c.rng.IntN(4)]
	return imgSpec(c, "caption:"+text,
		[]string{fmt.Sprintf("Write the text \"%s\" onto the image (anywhere visible) and save it to {OUT}.png.", text), fmt.Sprintf("Add a caption saying '%s' to this picture and save the result as {OUT}.png.", text)},
		[]string{fmt.Sprintf("请在图片上添加文字“%s”，保存到 {OUT}.png。", text), fmt.Sprintf("给这张图片加上文字 %s，结果存为 {OUT}.png。", text)},
		"Draw the text with ImageDraw in a contrasting colour.",
		fmt.Sprintf("from PIL import ImageDraw, ImageFont\nout = flat(im)\nd = ImageDraw.Draw(out)\n# text that stays legible from an icon to a 4K photo\nsize = max(10, out.height // 16)\nfont = ImageFont.load_default(size=size)\nw = max(1, size // 10)\nfor dx in range(w + 2):\n    d.text((size // 2 + dx, size // 2), %s, fill=(255, 0, 0), font=font)\n    d.text((size // 2 + dx, size // 2 + w), %s, fill=(0, 0, 0), font=font)", py(text), py(text)),
		fmt.Sprintf("Added the text \"%s\"; saved to {OUT}.png.", text), fmt.Sprintf("已添加文字“%s”，保存到 {OUT}.png。", text),
		pyCheck(`
import numpy as np
from PIL import ImageChops
src = flatten(open_image(%[1]s))
out = flatten(open_image('{out}.png'))
if out.size != src.size:
    out = out.resize(src.size)
diff = np.asarray(ImageChops.difference(out, src)).max(axis=2) > 40
changed = diff.mean()
# Text is strokes: a count of pixels, whatever the image's size.
assert diff.sum() >= 30, '{out}.png looks unchanged: no text was drawn (%%d pixels changed)' %% diff.sum()
assert changed < 0.5, '{out}.png changed too much (%%.0f%%%% of pixels) for a caption' %% (changed * 100)
s = similarity(open_image('{out}.png'), open_image(%[1]s))
assert s >= 0.7, '{out}.png no longer looks like the input (similarity %%.2f)' %% s
`, py("data/"+c.name(0)))), nil
}

func buildConcat2(c *bctx) ([]spec, error) {
	w1, h1 := c.imageSize(0)
	w2, h2 := c.imageSize(1)
	w2s := int(float64(w2)*float64(h1)/float64(h2) + 0.5)
	return []spec{{
		params: "concat2",
		en: []string{fmt.Sprintf("Put %s and %s side by side (%s on the left), scaling the second to the first one's height, and save the combined image to {OUT}.png.", c.name(0), c.name(1), c.name(0)),
			fmt.Sprintf("Concatenate the two pictures horizontally: %s first, then %s resized to the same height (keep its aspect ratio). Save it as {OUT}.png.", c.name(0), c.name(1))},
		zh: []string{fmt.Sprintf("请把 %s 和 %s 左右拼接（%s 在左），第二张按比例缩放到与第一张同高，结果保存到 {OUT}.png。", c.name(0), c.name(1), c.name(0)),
			fmt.Sprintf("将两张图片横向拼接：先 %s，再 %s（等比缩放到相同高度），存为 {OUT}.png。", c.name(0), c.name(1))},
		steps: []schemas.RefStep{step("Open both, scale the second to the first's height, paste side by side.", fmt.Sprintf(`import os
from PIL import Image

def flat(im):
    # transparency over white, as a viewer shows it
    if im.mode in ('RGBA', 'LA', 'PA') or 'transparency' in im.info:
        im = im.convert('RGBA')
        return Image.alpha_composite(Image.new('RGBA', im.size, (255, 255, 255, 255)), im).convert('RGB')
    return im.convert('RGB')

a = flat(Image.open(%s))
b = flat(Image.open(%s))
b = b.resize((round(b.width * a.height / b.height), a.height))
out = Image.new('RGB', (a.width + b.width, a.height), 'white')
out.paste(a, (0, 0))
out.paste(b, (a.width, 0))
os.makedirs('./output', exist_ok=True)
out.save('{OUT}.png')
print(out.size)`, py(c.dpath(0)), py(c.dpath(1))))},
		answer: fmt.Sprintf("The combined %dx%d image is saved to {OUT}.png.", w1+w2s, h1), answerZh: fmt.Sprintf("拼接后的 %dx%d 图片已保存到 {OUT}.png。", w1+w2s, h1),
		checks: []schemas.Check{pyCheck(`
im = open_image('{out}.png')
assert abs(im.width - %[1]d) <= 2 and im.height == %[2]d, '{out}.png is %%dx%%d, expected about %[1]dx%[2]d' %% im.size
a, b = open_image(%[3]s), open_image(%[4]s)
s1 = similarity(im.crop((0, 0, %[5]d, %[2]d)), a)
s2 = similarity(im.crop((%[5]d, 0, im.width, %[2]d)), b)
assert s1 >= 0.9, 'the left part of {out}.png is not %[6]s (similarity %%.2f)' %% s1
assert s2 >= 0.85, 'the right part of {out}.png is not %[7]s (similarity %%.2f)' %% s2
`, w1+w2s, h1, py("data/"+c.name(0)), py("data/"+c.name(1)), w1, c.name(0), c.name(1))},
		outputs: []string{"{out}.png"},
	}}, nil
}

func buildConvert(c *bctx) ([]spec, error) {
	targets := map[string][]string{"png": {"jpeg", "bmp", "gif"}, "jpeg": {"png", "bmp"}, "gif": {"png", "jpeg"}, "webp": {"png", "jpeg"}, "bmp": {"png", "jpeg"}}[c.typ(0)]
	if len(targets) == 0 {
		return nil, nil
	}
	to := targets[c.rng.IntN(len(targets))]
	ext := map[string]string{"jpeg": "jpg"}[to]
	if ext == "" {
		ext = to
	}
	w, h := c.imageSize(0)
	return []spec{{
		params: "convert:" + to,
		en:     []string{fmt.Sprintf("Convert this image to %s format and save it as {OUT}.%s.", upper(to), ext), fmt.Sprintf("Please save a %s copy of the picture to {OUT}.%s.", upper(to), ext)},
		zh:     []string{fmt.Sprintf("请把这张图片转换为 %s 格式，保存为 {OUT}.%s。", upper(to), ext), fmt.Sprintf("将图片另存为 %s 格式：{OUT}.%s。", upper(to), ext)},
		steps: []schemas.RefStep{openStep(c, 0), step("Convert to RGB (JPEG and BMP have no alpha or palette) and save in the new format.",
			fmt.Sprintf("os.makedirs('./output', exist_ok=True)\nout = flat(im)\nout.save('{OUT}.%s', format=%s)\nprint(Image.open('{OUT}.%s').format)", ext, py(upper(to)), ext))},
		answer:   fmt.Sprintf("Saved the image as %s to {OUT}.%s.", upper(to), ext),
		answerZh: fmt.Sprintf("已转换为 %s 格式，保存到 {OUT}.%s。", upper(to), ext),
		checks: []schemas.Check{
			fileCheck("{out}."+ext, to, 100),
			{Kind: schemas.CheckImage, Path: "{out}." + ext, Width: ip(w), Height: ip(h), Compare: cmp(c, "", 0.9)},
		},
		outputs: []string{"{out}." + ext},
	}}, nil
}

func buildImageSize(c *bctx) ([]spec, error) {
	w, h := c.imageSize(0)
	return []spec{{
		params: "size",
		en:     []string{"What are the width and height of this image in pixels?", "How big is this picture (width x height)?"},
		zh:     []string{"这张图片的宽和高分别是多少像素？", "图片的尺寸（宽x高）是多少？"},
		steps:  []schemas.RefStep{openStep(c, 0)},
		answer: fmt.Sprintf("The image is %d pixels wide and %d pixels high.", w, h), answerZh: fmt.Sprintf("图片宽 %d 像素，高 %d 像素。", w, h),
		checks: []schemas.Check{answerInt(w), answerInt(h), answerInOrder([]int{w, h}, dimensionLabels),
			recomputed(fmt.Sprintf("from PIL import Image\nw, h = Image.open(%s).size", py(c.dpath(0))), recomputedInt("w"), recomputedInt("h"))},
	}}, nil
}

func buildGIFFrames(c *bctx) ([]spec, error) {
	n := c.gifFrames(0)
	return []spec{{
		params: "gifframes",
		en: []string{"Split this animated GIF into its frames, save each frame as a PNG in the folder {OUT}/ (frame_0.png, frame_1.png, ...), and tell me how many frames there are.",
			"Extract every frame of the GIF as PNG files into {OUT}/ and report the frame count."},
		zh: []string{"请把这个 GIF 动图拆分成单帧，每一帧保存为 PNG 放到 {OUT}/ 文件夹（frame_0.png、frame_1.png……），并告诉我一共有多少帧。",
			"提取 GIF 的所有帧，以 PNG 格式保存到 {OUT}/ 目录，共有几帧？"},
		steps: []schemas.RefStep{openStep(c, 0), step("Walk the frames with ImageSequence and save each one.",
			"from PIL import ImageSequence\nos.makedirs('{OUT}', exist_ok=True)\nn = 0\nfor i, fr in enumerate(ImageSequence.Iterator(im)):\n    fr.convert('RGB').save('{OUT}/frame_%d.png' % i)\n    n += 1\nprint(n)")},
		answer: fmt.Sprintf("The GIF has %d frames, saved as PNG files in {OUT}/.", n), answerZh: fmt.Sprintf("该 GIF 共有 %d 帧，已保存到 {OUT}/。", n),
		checks: []schemas.Check{pyCheck(`
from PIL import Image
n = getattr(Image.open(%[1]s), 'n_frames', 1)
files = [f for f in os.listdir('{out}') if f.lower().endswith('.png')] if os.path.isdir('{out}') else []
assert len(files) == n, '{out}/ has %%d PNG frames, expected %%d' %% (len(files), n)
assert any(number_close(x, n) for x in numbers_in(answer)), 'the answer does not state the frame count %%d' %% n
`, py("data/"+c.name(0))), answerInt(n)},
		outputs: []string{"{out}/"},
	}}, nil
}

func buildQR(c *bctx) ([]spec, error) {
	urls := []string{"https://github.com", "https://www.python.org", "https://example.com/menu", "https://openlibrary.org"}
	u := urls[c.rng.IntN(len(urls))]
	return []spec{{
		params: u,
		en:     []string{fmt.Sprintf("Create a QR code that links to %s and save it as {OUT}.png.", u), fmt.Sprintf("Generate a QR code image for the URL %s; save it to {OUT}.png.", u)},
		zh:     []string{fmt.Sprintf("请生成一个指向 %s 的二维码，保存为 {OUT}.png。", u), fmt.Sprintf("为网址 %s 生成二维码图片，存到 {OUT}.png。", u)},
		steps:  []schemas.RefStep{step("Use the qrcode package.", fmt.Sprintf("import os, qrcode\nos.makedirs('./output', exist_ok=True)\nimg = qrcode.make(%s)\nimg.save('{OUT}.png')\nprint(img.size)", py(u)))},
		answer: fmt.Sprintf("The QR code for %s is saved to {OUT}.png.", u), answerZh: fmt.Sprintf("指向 %s 的二维码已保存到 {OUT}.png。", u),
		checks: []schemas.Check{pyCheck(`
import numpy as np
im = open_image('{out}.png')
w, h = im.size
assert abs(w - h) <= 2 and w >= 21, '{out}.png is %%dx%%d, not a square QR code' %% (w, h)
a = np.asarray(im.convert('L'), dtype=float)
dark = (a < 128).mean()
assert 0.2 < dark < 0.8 and ((a < 64) | (a > 192)).mean() > 0.9, '{out}.png does not look like a black-and-white QR code'
`)},
		outputs: []string{"{out}.png"},
	}}, nil
}
