package template

import (
	"fmt"
	"math"
	"regexp"
	"strconv"

	"synth/schemas"
)

func init() {
	reg := func(name string, b func(*bctx) ([]spec, error)) {
		register(&tmpl{Info: Info{Name: name, Version: 1, Category: schemas.CategoryData, Subcategory: GroupML, FileTypes: tableTypes},
			inputs: 1, build: withTotalsSkipped(b), mutate: mutateEmptyFile})
	}
	reg("ml.classify", buildClassify)
	reg("ml.regress", buildRegress)
	reg("ml.cluster", buildCluster)
}

var (
	labelName  = regexp.MustCompile(`(?i)(species|class|label|target|type|variety|grade|segment|category)`)
	targetName = regexp.MustCompile(`(?i)(price|salary|revenue|value|target|cost|amount|score|sales)`)
)

// features are the measures other than the excluded one: never an
// identifier, a rank or a year.
func features(t *table, not string) []column {
	var out []column
	for _, c := range t.measures() {
		if c.name != not {
			out = append(out, c)
		}
	}
	return out
}

func buildClassify(c *bctx) ([]spec, error) {
	t := c.table(0)
	var target column
	found := false
	for _, col := range t.categories() {
		if labelName.MatchString(col.name) && col.distinct <= 6 {
			target, found = col, true
			break
		}
	}
	fs := features(t, target.name)
	if !found || len(fs) < 2 {
		return nil, nil
	}
	fn := names(fs)
	return []spec{{
		params: "classify:" + target.name,
		en: []string{
			fmt.Sprintf("Train a classifier that predicts %s from %s. Hold out 20%% of the rows as a test set (random_state=42), report the test accuracy, and save the trained model with pickle to {OUT}.pkl.", target.name, joinAnd(fn)),
			fmt.Sprintf("Build a machine-learning model for %s using the features %s. Evaluate it on a 20%% test split and tell me the accuracy; pickle the fitted model to {OUT}.pkl.", target.name, joinAnd(fn)),
		},
		zh: []string{
			fmt.Sprintf("请训练一个分类模型，用 %s 预测 %s。留出 20%% 的数据作为测试集（random_state=42），报告测试集准确率，并用 pickle 把训练好的模型保存到 {OUT}.pkl。", joinZh(fn), target.name),
			fmt.Sprintf("以 %s 为特征，建立预测 %s 的机器学习模型，在 20%% 的测试集上评估并给出准确率，模型用 pickle 保存为 {OUT}.pkl。", joinZh(fn), target.name),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Fit a random forest on the features and measure test accuracy.", fmt.Sprintf(`import os, pickle
from sklearn.model_selection import train_test_split
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import accuracy_score
features = %s
data = df.dropna(subset=features + [%s])
X, y = data[features], data[%s].astype(str)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=42)
model = RandomForestClassifier(n_estimators=100, random_state=42).fit(X_train, y_train)
acc = accuracy_score(y_test, model.predict(X_test))
os.makedirs('./output', exist_ok=True)
with open('{OUT}.pkl', 'wb') as f:
    pickle.dump(model, f)
print('accuracy', round(acc, 3))`, pyList(fn), py(target.name), py(target.name))),
		},
		answer:   "A random forest was trained; its test accuracy is printed above and the model is saved to {OUT}.pkl.",
		answerZh: "已训练随机森林模型，测试集准确率见上方输出，模型已保存到 {OUT}.pkl。",
		checks: []schemas.Check{
			{Kind: schemas.CheckPickle, Path: "{out}.pkl", HasMethod: "predict"},
			pyCheck(`
import json
import pickle
import pandas as pd
df = %[1]s
feats = %[2]s
data = df.dropna(subset=feats + [%[3]q])
model = pickle.load(open('{out}.pkl', 'rb'))
pred = [str(p) for p in model.predict(data[feats])]
acc = sum(p == str(t) for p, t in zip(pred, data[%[3]q])) / len(data)
assert acc >= 0.6, 'the model in {out}.pkl gets only %%.0f%%%% of %[3]s right on the data' %% (acc * 100)
`, c.readExpr(0, "data/"+c.name(0)), pyList(fn), target.name),
		},
		outputs: []string{"{out}.pkl"},
	}}, nil
}

// maxScaleRatio bounds how far apart the spreads of a regression's features
// may be. Past about 1e6 (money in dollars beside a 1-to-10 rating),
// scikit-learn's LinearRegression, which solvers use, stops finding the
// least-squares fit: its R² falls below the true one, by 0.002 on a real
// table of films and by 0.8 on generated ones, and the task's expected R²
// would be a value no solver prints. 1e4 keeps a margin.
const maxScaleRatio = 1e4

// comparableScales reports whether the standard deviations of the features
// (columns of xs) are within maxScaleRatio of one another, none zero.
func comparableScales(xs [][]float64) bool {
	lo, hi := math.Inf(1), 0.0
	for j := range xs[0] {
		col := make([]float64, len(xs))
		for i, row := range xs {
			col[i] = row[j]
		}
		s := std(col)
		lo, hi = math.Min(lo, s), math.Max(hi, s)
	}
	return lo > 0 && hi <= maxScaleRatio*lo
}

// ols fits y on xs with an intercept and returns R².
func ols(xs [][]float64, y []float64) float64 {
	n, k := len(y), len(xs[0])+1
	a := make([][]float64, k)
	for i := range a {
		a[i] = make([]float64, k+1)
	}
	for r := 0; r < n; r++ {
		row := append([]float64{1}, xs[r]...)
		for i := 0; i < k; i++ {
			for j := 0; j < k; j++ {
				a[i][j] += row[i] * row[j]
			}
			a[i][k] += row[i] * y[r]
		}
	}
	for i := 0; i < k; i++ {
		p := i
		for j := i + 1; j < k; j++ {
			if math.Abs(a[j][i]) > math.Abs(a[p][i]) {
				p = j
			}
		}
		a[i], a[p] = a[p], a[i]
		if math.Abs(a[i][i]) < 1e-12 {
			return math.NaN()
		}
		for j := 0; j < k; j++ {
			if j != i {
				f := a[j][i] / a[i][i]
				for l := i; l <= k; l++ {
					a[j][l] -= f * a[i][l]
				}
			}
		}
	}
	beta := make([]float64, k)
	for i := range beta {
		beta[i] = a[i][k] / a[i][i]
	}
	my := mean(y)
	var ssr, sst float64
	for r := 0; r < n; r++ {
		p := beta[0]
		for j, x := range xs[r] {
			p += beta[j+1] * x
		}
		ssr += (y[r] - p) * (y[r] - p)
		sst += (y[r] - my) * (y[r] - my)
	}
	return 1 - ssr/sst
}

func buildRegress(c *bctx) ([]spec, error) {
	t := c.table(0)
	var target column
	found := false
	for _, col := range t.measures() {
		if targetName.MatchString(col.name) {
			target, found = col, true
		}
	}
	fs := features(t, target.name)
	if !found || len(fs) < 2 {
		return nil, nil
	}
	var xs [][]float64
	var y []float64
	for _, r := range t.rows {
		row := make([]float64, len(fs))
		ok := r[target.idx] != ""
		for i, f := range fs {
			v, err := strconv.ParseFloat(r[f.idx], 64)
			if r[f.idx] == "" || err != nil {
				ok = false
			}
			row[i] = v
		}
		if !ok {
			continue
		}
		tv, _ := strconv.ParseFloat(r[target.idx], 64)
		xs, y = append(xs, row), append(y, tv)
	}
	if len(y) < 20 || !comparableScales(xs) {
		return nil, nil
	}
	r2 := ols(xs, y)
	if math.IsNaN(r2) || r2 < 0.5 {
		return nil, nil
	}
	fn := names(fs)
	return []spec{{
		params: "regress:" + target.name,
		en: []string{
			fmt.Sprintf("Fit a linear regression that predicts %s from %s (use the rows without missing values). Report the R² on the data you fitted, and save the model with pickle to {OUT}.pkl.", target.name, joinAnd(fn)),
			fmt.Sprintf("Predict '%s' with an ordinary least squares model on %s. What R² does it reach on the full data? Pickle the fitted model to {OUT}.pkl.", target.name, joinAnd(fn)),
		},
		zh: []string{
			fmt.Sprintf("请用 %s 拟合线性回归模型预测 %s（使用无缺失值的行），给出在拟合数据上的 R²，并用 pickle 把模型保存到 {OUT}.pkl。", joinZh(fn), target.name),
			fmt.Sprintf("以 %s 为自变量，用最小二乘线性模型预测“%s”，模型在全部数据上的 R² 是多少？把模型 pickle 保存为 {OUT}.pkl。", joinZh(fn), target.name),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Fit LinearRegression and score it.", fmt.Sprintf(`import os, pickle
from sklearn.linear_model import LinearRegression
features = %s
data = df.dropna(subset=features + [%s])
model = LinearRegression().fit(data[features], data[%s])
r2 = model.score(data[features], data[%s])
os.makedirs('./output', exist_ok=True)
with open('{OUT}.pkl', 'wb') as f:
    pickle.dump(model, f)
print('R2', round(r2, 4))`, pyList(fn), py(target.name), py(target.name), py(target.name))),
		},
		answer:   fmt.Sprintf("The linear model reaches R² = %.4f; it is saved to {OUT}.pkl.", r2),
		answerZh: fmt.Sprintf("线性模型的 R² 为 %.4f，模型已保存到 {OUT}.pkl。", r2),
		checks: []schemas.Check{
			{Kind: schemas.CheckPickle, Path: "{out}.pkl", HasMethod: "predict"},
			pyCheck(`
import json
import pickle
import numpy as np
import pandas as pd
df = %[1]s
feats = %[2]s
data = df.dropna(subset=feats + [%[3]q])
model = pickle.load(open('{out}.pkl', 'rb'))
p = np.asarray(model.predict(data[feats]), dtype=float).ravel()
y = data[%[3]q].to_numpy(dtype=float)
r2 = 1 - ((y - p) ** 2).sum() / ((y - y.mean()) ** 2).sum()
assert r2 >= %[4]v, 'the model in {out}.pkl reaches R2 = %%.3f on the data, expected about %[5]s' %% r2
`, c.readExpr(0, "data/"+c.name(0)), pyList(fn), target.name, round(r2-0.05, 4), fmt.Sprintf("%.3f", r2)),
			{Kind: schemas.CheckAnswer, Number: &schemas.NumberMatch{Value: round(r2, 6), AbsTol: 0.01}},
		},
		outputs: []string{"{out}.pkl"},
	}}, nil
}

func buildCluster(c *bctx) ([]spec, error) {
	t := c.table(0)
	fs := t.measures()
	if len(fs) < 2 || len(t.rows) < 30 {
		return nil, nil
	}
	if len(fs) > 4 {
		fs = fs[:4]
	}
	fn := names(fs)
	n := 0
	for _, r := range t.rows {
		ok := true
		for _, f := range fs {
			if r[f.idx] == "" {
				ok = false
			}
		}
		if ok {
			n++
		}
	}
	k := 3
	return []spec{{
		params: "cluster",
		en: []string{
			fmt.Sprintf("Cluster the rows into %d groups with k-means on %s (standardize the features first, drop rows with missing values). Save the data with a new column named cluster to {OUT}.csv.", k, joinAnd(fn)),
			fmt.Sprintf("Group the records with KMeans (k=%d) using the scaled columns %s, after removing incomplete rows. Write the table plus a 'cluster' label column to {OUT}.csv.", k, joinAnd(fn)),
		},
		zh: []string{
			fmt.Sprintf("请用 k-means 按 %s 把数据聚成 %d 类（先标准化特征，并删除有缺失值的行），把带有新列 cluster 的数据保存到 {OUT}.csv。", joinZh(fn), k),
			fmt.Sprintf("去掉不完整的行后，用标准化的 %s 做 KMeans 聚类（k=%d），把原数据加上“cluster”标签列写入 {OUT}.csv。", joinZh(fn), k),
		},
		steps: []schemas.RefStep{
			loadStep(c, 0),
			step("Scale, fit KMeans and label the rows.", fmt.Sprintf(`from sklearn.preprocessing import StandardScaler
from sklearn.cluster import KMeans
features = %s
df = df.dropna(subset=features).copy()
X = StandardScaler().fit_transform(df[features])
df['cluster'] = KMeans(n_clusters=%d, n_init=10, random_state=42).fit_predict(X)
`, pyList(fn), k)+saveCSV+"\nprint(df['cluster'].value_counts())"),
		},
		answer:   fmt.Sprintf("The %d rows are labelled with %d clusters in {OUT}.csv.", n, k),
		answerZh: fmt.Sprintf("%d 行数据已标注为 %d 个簇，保存到 {OUT}.csv。", n, k),
		checks: []schemas.Check{
			{Kind: schemas.CheckTable, Path: "{out}.csv", Rows: ip(n), ColumnsInclude: append([]string{"cluster"}, fn...)},
			clusterCheck(c, fn, k),
		},
		outputs: []string{"{out}.csv"},
	}}, nil
}
