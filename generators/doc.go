// Package generators declares how tasks are written from files; template and
// llm are its implementations.
package generators
