package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"synth/schemas"
)

// CollectArtifacts lists the regular files under workspace/output
// (recursively) with their size and sha256, copies each into storeDir as
// <aa>/<sha256> (content-addressed; an existing copy is kept), and returns
// them sorted by their workspace-relative path ("output/plot.png").
// Symlinks and other special files are skipped: a cell must not be able to
// make the host copy a file from outside its workspace.
func CollectArtifacts(workspace, storeDir string) ([]schemas.Artifact, error) {
	root := filepath.Join(workspace, "output")
	var arts []schemas.Artifact
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root && os.IsNotExist(err) {
				return fs.SkipDir
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(workspace, p)
		if err != nil {
			return err
		}
		a, err := storeArtifact(p, storeDir)
		if err != nil {
			return fmt.Errorf("artifact %s: %w", rel, err)
		}
		a.Path = filepath.ToSlash(rel)
		arts = append(arts, a)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("collect artifacts of %s: %w", workspace, err)
	}
	sort.Slice(arts, func(i, j int) bool { return arts[i].Path < arts[j].Path })
	return arts, nil
}

// storeArtifact hashes p while copying it to a temporary file in storeDir,
// then renames it to its content address.
func storeArtifact(p, storeDir string) (schemas.Artifact, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscallNoFollow, 0)
	if err != nil {
		return schemas.Artifact{}, err
	}
	defer f.Close()
	if err := os.MkdirAll(storeDir, 0o755); err != nil {
		return schemas.Artifact{}, err
	}
	tmp, err := os.CreateTemp(storeDir, ".artifact-*")
	if err != nil {
		return schemas.Artifact{}, err
	}
	defer os.Remove(tmp.Name())
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), f)
	if err == nil {
		err = tmp.Close()
	} else {
		tmp.Close()
	}
	if err != nil {
		return schemas.Artifact{}, err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	dst := filepath.Join(storeDir, sum[:2], sum)
	if _, err := os.Stat(dst); err == nil {
		return schemas.Artifact{SHA256: sum, Size: n}, nil
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return schemas.Artifact{}, err
	}
	os.Chmod(tmp.Name(), 0o444)
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return schemas.Artifact{}, err
	}
	return schemas.Artifact{SHA256: sum, Size: n}, nil
}
