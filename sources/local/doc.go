// Package local is the source that collects the files of a folder on the
// host, in sorted order, filtered by include and exclude globs, following no
// symlink out of the folder.
package local
