package dataset

import "encoding/json"

// Feature is a column or struct field in Hugging Face datasets' terms:
// exactly one of Dtype (a Value), Sequence (a list of values), List (a list
// of structs with these fields) or Struct (a struct) is set.
// It marshals to YAML as a dataset card's dataset_info.features lists it.
type Feature struct {
	Name     string    `yaml:"name"`
	Dtype    string    `yaml:"dtype,omitempty"`    // string, int32, int64, bool
	Sequence string    `yaml:"sequence,omitempty"` // the dtype of a list's values
	List     []Feature `yaml:"list,omitempty"`
	Struct   []Feature `yaml:"struct,omitempty"`
}

// Features returns the columns of a dataset row in the given format
// (Config.Format), in order: in the openai-tools format those of toolsRow.
func Features(format string) []Feature {
	msg := []Feature{{Name: "role", Dtype: "string"}, {Name: "content", Dtype: "string"}}
	tools := Feature{Name: "tools", Dtype: "string"}
	if format == FormatOpenAITools {
		str := func(name string) Feature { return Feature{Name: name, Dtype: "string"} }
		msg = append(msg,
			Feature{Name: "tool_calls", List: []Feature{
				str("id"),
				str("type"),
				{Name: "function", Struct: []Feature{str("name"), {Name: "arguments", Struct: []Feature{str("code")}}}},
			}},
			str("tool_call_id"),
			str("name"),
		)
		tools = Feature{Name: "tools", List: []Feature{
			str("type"),
			{Name: "function", Struct: []Feature{
				str("name"),
				str("description"),
				{Name: "parameters", Struct: []Feature{
					str("type"),
					{Name: "properties", Struct: []Feature{{Name: "code", Struct: []Feature{str("type"), str("description")}}}},
					{Name: "required", Sequence: "string"},
				}},
			}},
		}}
	}
	return []Feature{
		{Name: "messages", List: msg},
		tools,
		{Name: "tool_choices", Dtype: "string"},
		{Name: "id", Dtype: "string"},
		{Name: "task_id", Dtype: "string"},
		{Name: "category", Dtype: "string"},
		{Name: "subcategory", Dtype: "string"},
		{Name: "file_types", Sequence: "string"},
		{Name: "teacher", Dtype: "string"},
		{Name: "turns", Dtype: "int32"},
		{Name: "tokens", Dtype: "int64"},
		{Name: "passed", Dtype: "bool"},
		{Name: "verdict_class", Dtype: "string"},
	}
}

// FeaturesJSON returns features in the JSON form of datasets'
// Features.to_dict (dataset_info.json, and the "huggingface" metadata of an
// Arrow schema): a Value is {"dtype", "_type": "Value"}, a list of structs a
// one-element array, a Sequence {"feature", "_type": "Sequence"}. Key order
// follows the columns, as datasets writes it.
func FeaturesJSON(fs []Feature) json.RawMessage {
	return json.RawMessage(featuresObject(fs))
}

func featuresObject(fs []Feature) []byte {
	b := []byte{'{'}
	for i, f := range fs {
		if i > 0 {
			b = append(b, ", "...)
		}
		name, _ := json.Marshal(f.Name)
		b = append(b, name...)
		b = append(b, ": "...)
		b = append(b, featureJSON(f)...)
	}
	return append(b, '}')
}

func featureJSON(f Feature) []byte {
	switch {
	case f.Sequence != "":
		return []byte(`{"feature": {"dtype": "` + f.Sequence + `", "_type": "Value"}, "_type": "Sequence"}`)
	case f.List != nil:
		return append(append([]byte{'['}, featuresObject(f.List)...), ']')
	case f.Struct != nil:
		return featuresObject(f.Struct)
	}
	return []byte(`{"dtype": "` + f.Dtype + `", "_type": "Value"}`)
}

// huggingfaceMetadata is the "huggingface" key-value metadata of a shard:
// datasets reads the features from it, so a loaded dataset has exactly the
// card's types (int32 turns, a Sequence of file types) rather than ones
// inferred from the Parquet schema.
func huggingfaceMetadata(format string) string {
	b, _ := json.Marshal(map[string]any{"info": map[string]any{"features": FeaturesJSON(Features(format))}})
	return string(b)
}
