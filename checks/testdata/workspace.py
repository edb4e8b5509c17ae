# Builds a workspace for the checks tests: data/ inputs and output/ results,
# some right and some wrong.
import math, os, pickle, wave
import numpy as np
import pandas as pd
from PIL import Image, ImageDraw, ImageFilter

os.makedirs("data", exist_ok=True)
os.makedirs("output", exist_ok=True)
df = pd.DataFrame({"region": ["N", "S", "N", "E", "N", None], "sales": [5.0, 3.0, 5.0, 9.0, 5.0, 1.0]})
df.loc[6] = ["N", 5.0]
df.to_csv("data/sales.csv", index=False)
df.drop_duplicates().to_csv("output/dups.csv", index=False)       # 2 duplicate rows left? no: drop_duplicates keeps one
pd.concat([df, df.iloc[:2]]).to_csv("output/dirty.csv", index=False)
pd.concat([df, df.iloc[:2]]).reset_index(drop=True).to_csv("output/dirty_index.csv")
df.dropna().drop_duplicates().sort_values("sales", ascending=False).to_csv("output/clean.csv", index=False)
try:  # a spreadsheet, for the verification benchmark: openpyxl is optional
    df.dropna().drop_duplicates().sort_values("sales", ascending=False).to_excel("output/clean.xlsx", index=False)
except ImportError:
    pass

im = Image.new("RGB", (120, 80), (240, 240, 230))
d = ImageDraw.Draw(im)
d.rectangle((10, 10, 50, 40), fill=(200, 30, 30))
d.ellipse((70, 30, 110, 75), fill=(30, 60, 200))
d.line((0, 79, 119, 0), fill=(0, 120, 0), width=3)
im.save("data/shapes.png")
im.rotate(90, expand=True).save("output/rot.png")
im.transpose(Image.FLIP_LEFT_RIGHT).save("output/flip.png")
im.convert("L").save("output/gray.png")
im.crop((10, 5, 70, 55)).save("output/crop.png")
im.save("output/same.png")
im.filter(ImageFilter.GaussianBlur(3)).save("output/blur.png")
im.point(lambda v: min(255, int(v * 1.4))).save("output/bright.png")
im.convert("RGB").save("output/shapes.jpg", quality=90)

rate = 8000
t = np.arange(rate * 2) / rate
x = 0.3 * np.sin(2 * math.pi * 440 * t)
def wav(path, y):
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(rate)
        w.writeframes((np.clip(y, -1, 1) * 32767).astype("<i2").tobytes())
wav("data/tone.wav", x)
wav("output/short.wav", x[: rate])
wav("output/loud.wav", x * 2.5)

class Model:
    def predict(self, X):
        return X
with open("output/model.pkl", "wb") as f:
    pickle.dump({"a": 1}, f)
from sklearn.linear_model import LinearRegression
with open("output/lr.pkl", "wb") as f:
    pickle.dump(LinearRegression().fit([[0], [1]], [0, 1]), f)
with open("output/page.html", "w") as f:
    f.write("<html><body><h1>Sales report</h1><table><tr><td>1</td></tr></table></body></html>")
open("output/empty.txt", "w").close()
# JSON of Cyrillic text written as UTF-8 (force_ascii=False): its first
# 4096 bytes end inside a character.
import json as _json
_rows = [{"ФИО": "Аббасов Илал Газанфар Оглы " * 3, "n": i} for i in range(400)]
_text = _json.dumps(_rows, ensure_ascii=False).encode("utf-8")
assert _text[:4096].decode("utf-8", "ignore").encode("utf-8") != _text[:4096]
with open("output/cyrillic.json", "wb") as f:
    f.write(_text)
