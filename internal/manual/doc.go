// Package manual holds README.md and the manual under docs/ to what runs
// say and what the code does: the figures a page quotes from make demo
// against the demo's run.json (Figures, which make docs-check runs through
// docsfigures), and, in its tests, the manual's index and links and the
// import floors docs/ARCHITECTURE.md draws. Imports rundir and schemas.
package manual
