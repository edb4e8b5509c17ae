package agent

import "strings"

// statements splits Python source into its top-level statements, each with
// its indented body and continuation lines, in order; joined with "\n"
// they give the code back. It follows brackets, strings (with triple
// quotes), comments and backslash continuations, and keeps else, elif,
// except and finally with the statement they continue. ok is false when
// the code ends inside a bracket or string, so the caller keeps it whole.
func statements(code string) (stmts []string, ok bool) {
	lines := strings.Split(code, "\n")
	var cur []string
	depth := 0
	quote := "" // the open string's delimiter, "" outside strings
	cont := false
	flush := func() {
		if len(cur) > 0 {
			stmts = append(stmts, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	for _, line := range lines {
		starts := depth == 0 && quote == "" && !cont && line != "" && line[0] != ' ' && line[0] != '\t' && !continues(line)
		if starts {
			flush()
		}
		cur = append(cur, line)
		depth, quote, cont = scan(line, depth, quote)
	}
	flush()
	return stmts, depth == 0 && quote == "" && !cont
}

// continues reports whether a line at column 0 carries on the statement
// before it.
func continues(line string) bool {
	for _, kw := range []string{"else:", "else ", "elif ", "except", "finally:", ")", "]", "}"} {
		if strings.HasPrefix(line, kw) {
			return true
		}
	}
	return strings.HasPrefix(line, "#") // a comment goes with the statement before it
}

// scan updates the bracket depth and open string over one line; cont is a
// trailing backslash outside strings.
func scan(line string, depth int, quote string) (int, string, bool) {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if quote != "" {
			switch {
			case c == '\\':
				i++
			case strings.HasPrefix(line[i:], quote):
				i += len(quote) - 1
				quote = ""
			}
			continue
		}
		switch c {
		case '#':
			return depth, quote, false
		case '\'', '"':
			q := string(c)
			if strings.HasPrefix(line[i:], strings.Repeat(q, 3)) {
				q = strings.Repeat(q, 3)
			}
			quote = q
			i += len(q) - 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '\\':
			if i == len(line)-1 {
				return depth, quote, true
			}
		}
	}
	if len(quote) == 1 {
		quote = "" // an unclosed one-line string: a syntax error Python will report
	}
	return depth, quote, false
}
