package arrowexport

import (
	"github.com/apache/arrow-go/v18/arrow/array"

	"synth/dataset"
	"synth/schemas"
)

// rowBuilder appends schemas.Row values to a record builder of schemaOf's
// layout; the column order is dataset.Features'.
type rowBuilder struct {
	b     *array.RecordBuilder
	tools bool // the openai-tools message layout
}

func (rb *rowBuilder) append(r *schemas.Row) {
	f := rb.b.Fields()
	msgs := f[0].(*array.ListBuilder)
	msgs.Append(true)
	ms := msgs.ValueBuilder().(*array.StructBuilder)
	names := map[string]string{} // call id -> tool, for tool messages' name
	for i := range r.Messages {
		m := &r.Messages[i]
		ms.Append(true)
		ms.FieldBuilder(0).(*array.StringBuilder).Append(m.Role)
		ms.FieldBuilder(1).(*array.StringBuilder).Append(m.Content)
		if rb.tools {
			appendToolCalls(ms.FieldBuilder(2).(*array.ListBuilder), m.ToolCalls)
			for _, c := range m.ToolCalls {
				names[c.ID] = c.Name
			}
			id, name := ms.FieldBuilder(3).(*array.StringBuilder), ms.FieldBuilder(4).(*array.StringBuilder)
			if m.ToolCallID == "" {
				id.AppendNull()
			} else {
				id.Append(m.ToolCallID)
			}
			if n, ok := names[m.ToolCallID]; ok && m.ToolCallID != "" {
				name.Append(n)
			} else {
				name.AppendNull()
			}
		}
	}
	switch {
	case rb.tools:
		appendToolDefs(f[1].(*array.ListBuilder), r.Tools)
	case r.Tools == nil:
		f[1].(*array.StringBuilder).AppendNull()
	default:
		f[1].(*array.StringBuilder).Append(*r.Tools)
	}
	for i, s := range []string{r.ToolChoices, r.ID, r.TaskID, r.Category, r.Subcategory} {
		f[2+i].(*array.StringBuilder).Append(s)
	}
	types := f[7].(*array.ListBuilder)
	types.Append(true)
	for _, t := range r.FileTypes {
		types.ValueBuilder().(*array.StringBuilder).Append(t)
	}
	f[8].(*array.StringBuilder).Append(r.Teacher)
	f[9].(*array.Int32Builder).Append(r.Turns)
	f[10].(*array.Int64Builder).Append(r.Tokens)
	f[11].(*array.BooleanBuilder).Append(r.Passed)
	f[12].(*array.StringBuilder).Append(r.VerdictClass)
}

// appendToolCalls appends a message's calls, arguments as the struct
// {code}.
func appendToolCalls(lb *array.ListBuilder, calls []schemas.ToolCall) {
	lb.Append(true)
	cs := lb.ValueBuilder().(*array.StructBuilder)
	for _, c := range calls {
		cs.Append(true)
		cs.FieldBuilder(0).(*array.StringBuilder).Append(c.ID)
		cs.FieldBuilder(1).(*array.StringBuilder).Append("function")
		fn := cs.FieldBuilder(2).(*array.StructBuilder)
		fn.Append(true)
		fn.FieldBuilder(0).(*array.StringBuilder).Append(c.Name)
		ab := fn.FieldBuilder(1).(*array.StructBuilder)
		ab.Append(true)
		ab.FieldBuilder(0).(*array.StringBuilder).Append(dataset.CallCode(c.Arguments))
	}
}

// appendToolDefs appends the tools column: the definitions of r's tools
// text (null without one).
func appendToolDefs(lb *array.ListBuilder, tools *string) {
	defs, err := dataset.ToolDefs(tools)
	if tools == nil || err != nil {
		lb.AppendNull()
		return
	}
	lb.Append(true)
	ds := lb.ValueBuilder().(*array.StructBuilder)
	for _, d := range defs {
		ds.Append(true)
		ds.FieldBuilder(0).(*array.StringBuilder).Append(d.Type)
		fn := ds.FieldBuilder(1).(*array.StructBuilder)
		fn.Append(true)
		fn.FieldBuilder(0).(*array.StringBuilder).Append(d.Function.Name)
		fn.FieldBuilder(1).(*array.StringBuilder).Append(d.Function.Description)
		ps := fn.FieldBuilder(2).(*array.StructBuilder)
		ps.Append(true)
		p := &d.Function.Parameters
		ps.FieldBuilder(0).(*array.StringBuilder).Append(p.Type)
		props := ps.FieldBuilder(1).(*array.StructBuilder)
		props.Append(true)
		code := props.FieldBuilder(0).(*array.StructBuilder)
		code.Append(true)
		code.FieldBuilder(0).(*array.StringBuilder).Append(p.Properties.Code.Type)
		code.FieldBuilder(1).(*array.StringBuilder).Append(p.Properties.Code.Description)
		req := ps.FieldBuilder(2).(*array.ListBuilder)
		req.Append(true)
		for _, name := range p.Required {
			req.ValueBuilder().(*array.StringBuilder).Append(name)
		}
	}
}
