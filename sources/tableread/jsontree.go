package tableread

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// JSON value kinds of a Node.
const (
	JSONObject = "object"
	JSONArray  = "array"
	JSONString = "string"
	JSONNumber = "number"
	JSONBool   = "bool"
	JSONNull   = "null"
)

// Node is one value of a JSON document as Python's json module loads it:
// an object keeps its keys in the order written, a repeated key keeping its
// first place and its last value (as a dict does).
type Node struct {
	Kind string
	// Keys are an object's keys, Values its values in the same order, or
	// an array's items.
	Keys   []string
	Values []*Node
	// Text is a string's value or a number as written.
	Text string
	Bool bool
}

// Container reports an object or an array.
func (n *Node) Container() bool { return n.Kind == JSONObject || n.Kind == JSONArray }

// Get is the value of an object's key, nil when there is none.
func (n *Node) Get(key string) *Node {
	for i, k := range n.Keys {
		if k == key {
			return n.Values[i]
		}
	}
	return nil
}

// Leaves counts the values under n that are neither objects nor arrays
// (strings, numbers, booleans and nulls); n itself when it is one.
func (n *Node) Leaves() int {
	if !n.Container() {
		return 1
	}
	s := 0
	for _, v := range n.Values {
		s += v.Leaves()
	}
	return s
}

// Depth is how many objects and arrays enclose n's deepest leaf: 0 for a
// leaf, 1 for {"a": 1}, 2 for {"a": [1]}. Containers with no leaf under
// them enclose nothing: {"a": 1, "b": {"c": []}} is 1.
func (n *Node) Depth() int {
	if !n.Container() {
		return 0
	}
	d := 0
	for _, v := range n.Values {
		if v.Container() && v.Leaves() == 0 {
			continue
		}
		d = max(d, v.Depth()+1)
	}
	return d
}

// ParseJSON reads a whole JSON document (one value, UTF-8 with or without
// a BOM) as an ordered tree.
func ParseJSON(b []byte) (*Node, error) {
	b = bytes.TrimPrefix(b, []byte{0xef, 0xbb, 0xbf})
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, err := parseValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more than one JSON value (JSON lines?)")
	}
	return n, nil
}

// maxJSONDepth bounds nesting, as Python's json module's recursion limit
// does.
const maxJSONDepth = 500

func parseValue(dec *json.Decoder) (*Node, error) { return parseAt(dec, 0) }

func parseAt(dec *json.Decoder, depth int) (*Node, error) {
	if depth > maxJSONDepth {
		return nil, fmt.Errorf("nested deeper than %d", maxJSONDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch v := tok.(type) {
	case json.Delim:
		n := &Node{Kind: JSONArray}
		if v == '{' {
			n.Kind = JSONObject
		} else if v != '[' {
			return nil, fmt.Errorf("unexpected %v", v)
		}
		for dec.More() {
			key := ""
			if n.Kind == JSONObject {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ = kt.(string)
			}
			child, err := parseAt(dec, depth+1)
			if err != nil {
				return nil, err
			}
			n.add(key, child)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return n, nil
	case string:
		return &Node{Kind: JSONString, Text: v}, nil
	case json.Number:
		return &Node{Kind: JSONNumber, Text: v.String()}, nil
	case bool:
		return &Node{Kind: JSONBool, Bool: v}, nil
	case nil:
		return &Node{Kind: JSONNull}, nil
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// add appends an array item, or sets an object's key as a Python dict
// does: a repeated key keeps its place and takes the new value.
func (n *Node) add(key string, v *Node) {
	if n.Kind == JSONObject {
		for i, k := range n.Keys {
			if k == key {
				n.Values[i] = v
				return
			}
		}
		n.Keys = append(n.Keys, key)
	}
	n.Values = append(n.Values, v)
}
