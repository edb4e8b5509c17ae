package arrowexport

import (
	"github.com/apache/arrow-go/v18/arrow/array"

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
	for i := range r.Messages {
		m := &r.Messages[i]
		ms.Append(true)
		ms.FieldBuilder(0).(*array.StringBuilder).Append(m.Role)
		ms.FieldBuilder(1).(*array.StringBuilder).Append(m.Content)
		if rb.tools {
			appendToolCalls(ms.FieldBuilder(2).(*array.ListBuilder), m.ToolCalls)
			id := ms.FieldBuilder(3).(*array.StringBuilder)
			if m.ToolCallID == "" {
				id.AppendNull()
			} else {
				id.Append(m.ToolCallID)
			}
		}
	}
	if r.Tools == nil {
		f[1].(*array.StringBuilder).AppendNull()
	} else {
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
}

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
		fn.FieldBuilder(1).(*array.StringBuilder).Append(c.Arguments)
	}
}
