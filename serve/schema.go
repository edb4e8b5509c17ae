package serve

// schemaDoc is what /schema answers: JSON schemas of the action, the
// observation and the state.
var schemaDoc = map[string]any{
	"action": map[string]any{
		"type":        "object",
		"description": "the model's next message: message (role assistant, content, tool_calls as OpenAI's API or a chat template writes them), or content alone",
		"properties": map[string]any{
			"message":  map[string]any{"type": "object"},
			"content":  map[string]any{"type": "string"},
			"metadata": map[string]any{"type": "object"},
		},
	},
	"observation": map[string]any{
		"type": "object",
		"properties": map[string]any{
			"episode_id":  map[string]any{"type": "string"},
			"task_id":     map[string]any{"type": "string"},
			"format":      map[string]any{"type": "string", "enum": []string{"pybench", "openai-tools"}},
			"messages":    map[string]any{"type": "array", "description": "the messages this call added: at reset the system prompt, the upload notice and the query; at a step the cell's observation"},
			"tools":       map[string]any{"type": "array"},
			"turn":        map[string]any{"type": "integer"},
			"max_turns":   map[string]any{"type": "integer"},
			"cell_status": map[string]any{"type": "string", "enum": []string{"ok", "error", "timeout", "crash"}},
			"cell_ms":     map[string]any{"type": "number"},
			"stop_reason": map[string]any{"type": "string"},
			"verdict":     map[string]any{"type": "object", "description": "passed, checks [{kind, ok, message}], failure"},
			"error":       map[string]any{"type": "string"},
		},
	},
	"state": map[string]any{
		"type": "object",
		"properties": map[string]any{
			"episode_id":  map[string]any{"type": "string"},
			"step_count":  map[string]any{"type": "integer"},
			"task_id":     map[string]any{"type": "string"},
			"done":        map[string]any{"type": "boolean"},
			"stop_reason": map[string]any{"type": "string"},
			"reward":      map[string]any{"type": []string{"number", "null"}},
			"messages":    map[string]any{"type": "array"},
		},
	},
}
