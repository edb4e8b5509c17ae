// Package agent runs the ReAct loop: a teacher writes turns, the sandbox runs
// their code, and the observations go back until the teacher finishes.
package agent
