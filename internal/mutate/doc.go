// Mutate is synth's mutation run over its guards: it applies each mutant
// of a list (a file, an exact piece of its text, what replaces it, and the
// tests that must notice) one at a time to a temporary copy of the tree,
// runs the named package's tests there, and reports which mutants a test
// killed and which survived.
//
// Usage:
//
//	go run ./internal/mutate [-mutants FILE] [-sample] [-only REGEXP] [-min PERCENT] [-keep]
//
// The checkout is never edited: the tracked and untracked (not ignored)
// files are copied once into a temporary directory, and each mutant is
// written there and undone after its run. The tests named for a mutant
// first run unmutated; a mutant whose tests fail without it, whose text
// is not found exactly once, or that does not compile is an error of the
// list. The kill rate counts the mutants not marked equivalent; the exit
// status is 1 when it is below -min or the list has an error, 2 for a
// usage error.
//
// The list (internal/mutate/mutants.txt) is blocks of "key: value" lines
// separated by blank lines; a value that starts with a double quote is a
// Go string literal (for newlines and tabs):
//
//	name: score-never-passes
//	file: checks/adversary/adversary.go
//	old: res[i].Passed = len(rs[i]) > 0
//	new: res[i].Passed = false
//	pkg: ./checks/adversary/
//	run: TestScore
//	sample: true
//	equivalent: why no test can tell the mutant from the original
//	downstream: ./pipeline/ TestValidateDropsWhatAnAdversaryPasses
//
// downstream (repeatable) names another package and its tests that must
// notice the same change, for a guard several packages rely on (the
// verifier's in build, eval and serve): the mutant is killed only when
// every package's tests fail, and a survivor names the first that passed.
// List a change once, with downstream, rather than as one entry per
// package.
//
// With -blind the mutants are not read from a list but made from the
// guard functions of internal/mutate/guards.txt ("FILE FUNC PKG RUN" per
// line): every comparison negated (== and !=, < and >=, > and <=) and
// every if without an else whose block ends in a return made dead (its
// condition becomes false && (cond)), one at a time. They are named
// FILE:FUNC#cmpN and FILE:FUNC#retN, counted in source order within the
// function; internal/mutate/equivalents.txt marks those no test can tell
// apart ("NAME reason" per line). -list prints the selected mutants and
// runs nothing.
package main
