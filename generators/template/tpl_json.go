package template

import (
	"fmt"
	"strings"

	"synth/schemas"
	"synth/sources/tableread"
)

func init() {
	register(&tmpl{Info: Info{Name: "json.structure", Version: 1, Category: schemas.CategoryData, Subcategory: GroupStatistics, FileTypes: []string{"json"}},
		inputs: 1, jsonTree: true, build: buildJSONStructure, mutate: mutateAnswer})
}

// What json.structure asks of a document: enough leaves and nesting to
// count, and no nesting deeper than Python's recursion reaches easily.
const (
	jsonMinLeaves = 10
	jsonMinDepth  = 2
	jsonMaxDepth  = 100
)

// jsonStructureLabels name the leaf count and the depth in an answer.
var jsonStructureLabels = [][2]string{
	{`leaf values?|leaves|leaf nodes|scalar values|叶子值|叶值|叶子节点`, `(?:leaf values?|leaves|leaf nodes|scalar values|个叶子值|个叶值|个叶子节点)`},
	{`depth|deepest nesting|nesting depth|nesting|深度|层数`, `(?:levels?(?:\s+deep)?|层)`},
}

// jsonLeafPy is the reference's walk of a loaded document: leaf_depths
// yields, for each value that is neither an object nor an array, how many
// objects and arrays enclose it.
const jsonLeafPy = `def leaf_depths(v, d=0):
    if isinstance(v, dict):
        v = list(v.values())
    if isinstance(v, list):
        for x in v:
            yield from leaf_depths(x, d + 1)
    else:
        yield d`

// buildJSONStructure asks, of a JSON object, how many leaf values it
// holds, how deep its deepest leaf lies and which top-level key holds the
// most leaves. The Go walk of the tableread tree is the derivation the
// recomputed check's Python walk must agree with; a document whose
// top-level keys tie for the most leaves has no one answer and gets no
// task.
func buildJSONStructure(c *bctx) ([]spec, error) {
	doc := c.jsonTree(0)
	if doc.Kind != tableread.JSONObject || len(doc.Keys) < 2 {
		return nil, nil
	}
	leaves, depth := doc.Leaves(), doc.Depth()
	if leaves < jsonMinLeaves || depth < jsonMinDepth || depth > jsonMaxDepth {
		return nil, nil
	}
	top, most, second := "", -1, -1
	for i, k := range doc.Keys {
		switch n := doc.Values[i].Leaves(); {
		case n > most:
			top, most, second = k, n, most
		case n > second:
			second = n
		}
	}
	if most == second || !plainKey(top) {
		return nil, nil
	}
	p, enc := c.dpath(0), c.textEncoding(0)
	load := fmt.Sprintf("import json\nwith open(%s, encoding=%s) as f:\n    doc = json.load(f)", py(p), py(enc))
	walk := jsonLeafPy + "\n\ndepths = list(leaf_depths(doc))\nper_key = {k: len(list(leaf_depths(v))) for k, v in doc.items()}\ntop = max(per_key, key=per_key.get)"
	return []spec{{
		params: "structure",
		en: []string{
			fmt.Sprintf("How many leaf values (strings, numbers, booleans and nulls; objects and arrays are not leaves) does the JSON file %s hold, how deep is its deepest nesting (the number of objects and arrays enclosing its most deeply nested leaf: {\"a\": 1} has depth 1), and which top-level key holds the most leaf values?", p),
			fmt.Sprintf("Describe the structure of %s: count its leaf values (every string, number, boolean or null at any depth, not the objects and arrays holding them), give its nesting depth (how many objects and arrays enclose the deepest leaf; {\"a\": [1]} has depth 2), and name the top-level key under which the most leaf values lie.", p),
		},
		zh: []string{
			fmt.Sprintf("JSON 文件 %s 共有多少个叶子值（字符串、数字、布尔值和 null；对象和数组不算叶子）？最深的嵌套深度是多少（包住最深叶子值的对象和数组的个数：{\"a\": 1} 的深度为 1）？哪个顶层键下的叶子值最多？", p),
		},
		steps: []schemas.RefStep{
			step("Load the JSON document and look at its top-level keys.", load+"\nprint(type(doc).__name__, len(doc))\nprint(list(doc)[:20])"),
			step("Walk every value: a leaf is anything that is not a dict or a list; its depth is how many containers enclose it. Count the leaves under each top-level key.",
				walk+"\nprint(len(depths), max(depths), top, per_key[top])"),
		},
		answer:   fmt.Sprintf("The file holds %d leaf values; its deepest nesting is %d levels; the top-level key with the most leaf values is %s.", leaves, depth, top),
		answerZh: fmt.Sprintf("该文件共有 %d 个叶子值；最深嵌套深度为 %d 层；叶子值最多的顶层键是 %s。", leaves, depth, top),
		checks: []schemas.Check{
			answerInt(leaves), answerInt(depth), answerInOrder([]int{leaves, depth}, jsonStructureLabels),
			answerOne(top, doc.Keys),
			jsonStructureRecomputed(load, walk),
		},
	}}, nil
}

// jsonTree is json file i as its ordered tree.
func (c *bctx) jsonTree(i int) *tableread.Node { return must(c, i, jsonTreeFile) }

// plainKey reports a key an answer can name and a check find: a word or
// phrase of one line, not a number (which the number checks would read).
func plainKey(k string) bool {
	if strings.TrimSpace(k) == "" || strings.ContainsAny(k, "\n\r\t") || len(k) > 60 {
		return false
	}
	return !numRE.MatchString(k)
}

// jsonStructureRecomputed is json.structure's check against the real
// input in the verification sandbox: the answer states the leaf count and
// the depth the reference's walk finds, and names the top-level key
// holding the most leaves.
func jsonStructureRecomputed(load, walk string) schemas.Check {
	c := recomputed(load+"\n"+walk, recomputedInt("len(depths)"), recomputedInt("max(depths)"))
	c.Code += `
import re
assert re.search(r'(?<!\w)' + re.escape(top) + r'(?!\w)', answer, re.I), 'the answer does not name %r, the top-level key holding the most leaf values (computed from the inputs)' % top`
	return c
}
