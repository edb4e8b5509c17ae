package kaggle

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Credentials are a Kaggle user name and API key.
type Credentials struct {
	Username string `json:"username"`
	Key      string `json:"key"`
	From     string `json:"-"` // where they were found, for messages
}

// LoadCredentials finds credentials: KAGGLE_USERNAME and KAGGLE_KEY, else
// the JSON file at path (empty: $KAGGLE_CONFIG_DIR/kaggle.json, else
// ~/.kaggle/kaggle.json). getenv is os.Getenv in production.
func LoadCredentials(path string, getenv func(string) string) (Credentials, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if u, k := getenv("KAGGLE_USERNAME"), getenv("KAGGLE_KEY"); u != "" && k != "" {
		return Credentials{Username: u, Key: k, From: "KAGGLE_USERNAME/KAGGLE_KEY"}, nil
	}
	if path == "" {
		path = DefaultCredentialsPath(getenv)
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Credentials{}, fmt.Errorf("kaggle: no credentials: create %s (kaggle.com > Settings > API > Create New Token) or set KAGGLE_USERNAME and KAGGLE_KEY", path)
	}
	if err != nil {
		return Credentials{}, fmt.Errorf("kaggle: credentials %s: %w", path, err)
	}
	var c Credentials
	if err := json.Unmarshal(b, &c); err != nil {
		return Credentials{}, fmt.Errorf("kaggle: credentials %s: not the JSON Kaggle issues ({\"username\": …, \"key\": …}): %w", path, err)
	}
	if c.Username == "" || c.Key == "" {
		return Credentials{}, fmt.Errorf("kaggle: credentials %s: username or key missing", path)
	}
	c.From = path
	return c, nil
}

// DefaultCredentialsPath is where Kaggle's own client looks.
func DefaultCredentialsPath(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("KAGGLE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "kaggle.json")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".kaggle", "kaggle.json")
}
