// Package arxiv is the source that searches arXiv's export API (an Atom
// feed), downloads each paper's PDF (and, if asked, the .tex and .txt files
// of its source tarball), reads its license over OAI-PMH, and records id,
// version, title, authors and license. It waits at least 3 seconds between
// requests, as arXiv asks.
package arxiv
