package arrowexport

import (
	"encoding/json"

	"github.com/apache/arrow-go/v18/arrow"

	"synth/dataset"
)

// schemaOf returns the Arrow schema datasets derives from the row features
// of format: every field nullable, list children named "item", and the
// features themselves in the "huggingface" schema metadata, as datasets
// stores them.
func schemaOf(format string) *arrow.Schema {
	feats := dataset.Features(format)
	fields := make([]arrow.Field, len(feats))
	for i, f := range feats {
		fields[i] = fieldOf(f)
	}
	info, _ := json.Marshal(map[string]any{"info": map[string]any{"features": dataset.FeaturesJSON(feats)}})
	md := arrow.NewMetadata([]string{"huggingface"}, []string{string(info)})
	return arrow.NewSchema(fields, &md)
}

func fieldOf(f dataset.Feature) arrow.Field {
	return arrow.Field{Name: f.Name, Type: typeOf(f), Nullable: true}
}

func typeOf(f dataset.Feature) arrow.DataType {
	switch {
	case f.Sequence != "":
		return arrow.ListOfField(arrow.Field{Name: "item", Type: valueType(f.Sequence), Nullable: true})
	case f.List != nil:
		return arrow.ListOfField(arrow.Field{Name: "item", Type: structOf(f.List), Nullable: true})
	case f.Struct != nil:
		return structOf(f.Struct)
	}
	return valueType(f.Dtype)
}

func structOf(fs []dataset.Feature) *arrow.StructType {
	fields := make([]arrow.Field, len(fs))
	for i, f := range fs {
		fields[i] = fieldOf(f)
	}
	return arrow.StructOf(fields...)
}

func valueType(dtype string) arrow.DataType {
	switch dtype {
	case "int32":
		return arrow.PrimitiveTypes.Int32
	case "int64":
		return arrow.PrimitiveTypes.Int64
	case "bool":
		return arrow.FixedWidthTypes.Boolean
	}
	return arrow.BinaryTypes.String
}
