package config

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// hashJSON encodes v as encoding/json does, but with every struct field
// under its Go name rather than its json key (omitempty is honoured). The
// config hash is taken over this form, so renaming run.json's keys does
// not change it: runs written before the keys were snake_case still
// resume.
func hashJSON(v any) []byte {
	var b bytes.Buffer
	encodeGoNames(&b, reflect.ValueOf(v))
	return b.Bytes()
}

func encodeGoNames(b *bytes.Buffer, v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		b.WriteByte('{')
		first := true
		encodeFields(b, v, &first)
		b.WriteByte('}')
		return
	case reflect.Pointer:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		encodeGoNames(b, v.Elem())
		return
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		if !holdsStruct(v.Type()) {
			break
		}
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeGoNames(b, v.Index(i))
		}
		b.WriteByte(']')
		return
	case reflect.Map:
		if v.IsNil() {
			b.WriteString("null")
			return
		}
		if !holdsStruct(v.Type()) {
			break
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(x, y reflect.Value) int { return strings.Compare(x.String(), y.String()) })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			key, _ := json.Marshal(k.String())
			b.Write(key)
			b.WriteByte(':')
			encodeGoNames(b, v.MapIndex(k))
		}
		b.WriteByte('}')
		return
	}
	leaf, _ := json.Marshal(v.Interface())
	b.Write(leaf)
}

// encodeFields writes v's exported fields, an embedded struct's fields in
// its place, as encoding/json promotes them.
func encodeFields(b *bytes.Buffer, v reflect.Value, first *bool) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		if f.Anonymous && f.Type.Kind() == reflect.Struct && strings.Split(tag, ",")[0] == "" {
			encodeFields(b, v.Field(i), first)
			continue
		}
		if strings.Contains(tag, ",omitempty") && v.Field(i).IsZero() {
			continue
		}
		if !*first {
			b.WriteByte(',')
		}
		*first = false
		name, _ := json.Marshal(f.Name)
		b.Write(name)
		b.WriteByte(':')
		encodeGoNames(b, v.Field(i))
	}
}

// holdsStruct reports whether values of t (a slice or map) hold structs,
// whose fields need Go names.
func holdsStruct(t reflect.Type) bool {
	for {
		switch t.Kind() {
		case reflect.Struct:
			return true
		case reflect.Slice, reflect.Array, reflect.Map, reflect.Pointer:
			t = t.Elem()
		default:
			return false
		}
	}
}
