package kaggle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Credential kinds, as synth doctor names them.
const (
	KindToken  = "API token"         // KAGGLE_API_TOKEN or access_token: Bearer
	KindOAuth  = "OAuth credentials" // credentials.json (kaggle auth login): Bearer, refreshed
	KindLegacy = "legacy API key"    // kaggle.json or KAGGLE_USERNAME/KAGGLE_KEY: Basic
	KindNone   = "no credentials"    // anonymous: public datasets only
)

// ErrNoCredentials is LoadCredentials' error when it finds none. A source
// then goes on anonymously, as Kaggle's CLI and kagglehub do for public
// datasets; the error's text says where to get a token.
var ErrNoCredentials = errors.New("kaggle: no credentials")

// SettingsURL is where Kaggle issues API tokens.
const SettingsURL = "https://www.kaggle.com/settings"

// Credentials are what synth sends Kaggle: a bearer token (an API token,
// or an OAuth access token) or a legacy user name and key.
type Credentials struct {
	Kind     string
	From     string // where they were found (a path or a variable), for messages
	Token    string // Bearer
	Username string // Basic
	Key      string
	oauth    *oauthFile
	oauthAt  string // the credentials.json path, rewritten after a refresh
}

// Bearer reports whether the credentials are sent as a bearer token.
func (c Credentials) Bearer() bool { return c.Token != "" || c.oauth != nil }

// Anonymous reports that no credentials were found: requests go without
// an Authorization header.
func (c Credentials) Anonymous() bool { return c.Kind == KindNone }

// authorize sets the Authorization header; an anonymous source sends none.
func (c Credentials) authorize(r *http.Request) {
	if c.Anonymous() {
		return
	}
	if c.Token != "" {
		r.Header.Set("Authorization", "Bearer "+c.Token)
		return
	}
	r.SetBasicAuth(c.Username, c.Key)
}

// Describe says which credential was found and where, never its value.
func (c Credentials) Describe() string {
	if c.Anonymous() {
		return "no credentials (anonymous: public datasets only)"
	}
	how := "Basic"
	if c.Bearer() {
		how = "Bearer"
	}
	return fmt.Sprintf("%s (%s) from %s", c.Kind, how, c.From)
}

// ConfigDir is the folder Kaggle's CLI keeps credentials in:
// $KAGGLE_CONFIG_DIR, else ~/.kaggle if it exists, else
// $XDG_CONFIG_HOME/kaggle (~/.config/kaggle).
func ConfigDir(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("KAGGLE_CONFIG_DIR"); d != "" {
		return d
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	dot := filepath.Join(home, ".kaggle")
	if st, err := os.Stat(dot); err == nil && st.IsDir() {
		return dot
	}
	xdg := getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	return filepath.Join(xdg, "kaggle")
}

// LoadCredentials finds credentials, first found wins, in the order of
// Kaggle's CLI (an access token, then a legacy key; OAuth first only when
// KAGGLE_ENABLE_OAUTH is set, as the CLI's kaggle auth login flow asks):
//
//  1. path, when set (sources.kaggle.credentials): a file holding an API
//     token, an OAuth credentials.json or a kaggle.json;
//  2. KAGGLE_API_TOKEN: the token, or the path of a file holding it;
//  3. access_token (or access_token.txt) in the config dir;
//  4. with KAGGLE_ENABLE_OAUTH (1, true or yes): credentials.json in the
//     config dir (OAuth, from kaggle auth login);
//  5. KAGGLE_USERNAME and KAGGLE_KEY;
//  6. kaggle.json in the config dir;
//  7. credentials.json in the config dir, where the CLI without
//     KAGGLE_ENABLE_OAUTH would find nothing (a deliberate difference:
//     a login is better than none).
//
// With none of them it returns an error wrapping ErrNoCredentials. The
// config dir is ConfigDir's. getenv is os.Getenv in production.
func LoadCredentials(path string, getenv func(string) string) (Credentials, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if path != "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return Credentials{}, fmt.Errorf("kaggle: sources.kaggle.credentials: %w", err)
		}
		return parseFile(path, b)
	}
	if v := strings.TrimSpace(getenv("KAGGLE_API_TOKEN")); v != "" {
		if b, err := os.ReadFile(v); err == nil {
			tok := strings.TrimSpace(string(b))
			if tok == "" {
				return Credentials{}, fmt.Errorf("kaggle: KAGGLE_API_TOKEN names %s, which is empty", v)
			}
			return Credentials{Kind: KindToken, From: "KAGGLE_API_TOKEN (file " + v + ")", Token: tok}, nil
		}
		return Credentials{Kind: KindToken, From: "KAGGLE_API_TOKEN", Token: v}, nil
	}
	dir := ConfigDir(getenv)
	files := []string{"access_token", "access_token.txt"}
	if oauthEnabled(getenv) {
		files = append(files, "credentials.json")
	}
	if c, ok, err := firstFile(dir, files); ok || err != nil {
		return c, err
	}
	if u, k := getenv("KAGGLE_USERNAME"), getenv("KAGGLE_KEY"); u != "" && k != "" {
		return Credentials{Kind: KindLegacy, From: "KAGGLE_USERNAME/KAGGLE_KEY", Username: u, Key: k}, nil
	}
	if c, ok, err := firstFile(dir, []string{"kaggle.json", "credentials.json"}); ok || err != nil {
		return c, err
	}
	return Credentials{}, fmt.Errorf("%w: public datasets download without them; for the rest (search, competitions, private data) "+
		"generate an API token at %s (API > Generate New Token) and set KAGGLE_API_TOKEN to it or save it in %s; "+
		"a legacy kaggle.json (\"Create Legacy API Key\") in %s or KAGGLE_USERNAME and KAGGLE_KEY also work",
		ErrNoCredentials, SettingsURL, filepath.Join(dir, "access_token"), dir)
}

// oauthEnabled reports KAGGLE_ENABLE_OAUTH set as the CLI reads it.
func oauthEnabled(getenv func(string) string) bool {
	switch strings.ToLower(strings.TrimSpace(getenv("KAGGLE_ENABLE_OAUTH"))) {
	case "1", "true", "yes":
		return true
	}
	return false
}

// firstFile parses the first of names in dir that exists and is not
// empty; ok is false when there is none.
func firstFile(dir string, names []string) (Credentials, bool, error) {
	for _, name := range names {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return Credentials{}, false, fmt.Errorf("kaggle: credentials %s: %w", p, err)
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		c, err := parseFile(p, b)
		return c, err == nil, err
	}
	return Credentials{}, false, nil
}

// parseFile reads any of the three file forms: a kaggle.json, an OAuth
// credentials.json, or a bare token.
func parseFile(path string, b []byte) (Credentials, error) {
	t := bytes.TrimSpace(b)
	if len(t) == 0 {
		return Credentials{}, fmt.Errorf("kaggle: credentials %s: empty file", path)
	}
	if t[0] != '{' {
		return Credentials{Kind: KindToken, From: path, Token: string(t)}, nil
	}
	var f struct {
		Username string `json:"username"`
		Key      string `json:"key"`
		oauthFile
	}
	if err := json.Unmarshal(t, &f); err != nil {
		return Credentials{}, fmt.Errorf("kaggle: credentials %s: not JSON Kaggle writes: %w", path, err)
	}
	switch {
	case f.RefreshToken != "":
		o := f.oauthFile
		return Credentials{Kind: KindOAuth, From: path, oauth: &o, oauthAt: path}, nil
	case f.Username != "" && f.Key != "":
		return Credentials{Kind: KindLegacy, From: path, Username: f.Username, Key: f.Key}, nil
	}
	return Credentials{}, fmt.Errorf("kaggle: credentials %s: neither a kaggle.json (username, key) nor an OAuth credentials.json (refresh_token)", path)
}

// oauthFile is the credentials.json that kaggle auth login writes.
type oauthFile struct {
	RefreshToken string   `json:"refresh_token"`
	AccessToken  string   `json:"access_token"`
	Expiration   string   `json:"access_token_expiration"` // ISO 8601
	Username     string   `json:"username"`
	Scopes       []string `json:"scopes"`
}

// tokenLife is how long a refreshed OAuth access token is asked to last.
const tokenLife = 12 * time.Hour

// accessToken returns the OAuth credentials' access token, refreshing it
// through users.AccountService/GenerateAccessToken when it is missing or
// expires within 10 minutes, and saving the new one in credentials.json.
func (c *Credentials) accessToken(ctx context.Context, api string, hc *http.Client, now time.Time) error {
	if c.oauth == nil {
		return nil
	}
	if exp, err := time.Parse(time.RFC3339Nano, c.oauth.Expiration); err == nil && c.oauth.AccessToken != "" && exp.After(now.Add(10*time.Minute)) {
		c.Token = c.oauth.AccessToken
		return nil
	}
	body, _ := json.Marshal(map[string]string{
		"refreshToken":       c.oauth.RefreshToken,
		"apiVersion":         "API_VERSION_V1",
		"expirationDuration": fmt.Sprintf("%ds", int(tokenLife.Seconds())),
	})
	endpoint := api + "/users.AccountService/GenerateAccessToken"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("kaggle: refresh the OAuth token of %s: %w", c.From, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("kaggle: refresh the OAuth token of %s: POST %s: %d %s: %s (log in again with kaggle auth login, or use an API token from %s)",
			c.From, endpoint, resp.StatusCode, http.StatusText(resp.StatusCode), start(raw), SettingsURL)
	}
	var r struct {
		Token     string `json:"token"`
		ExpiresIn int64  `json:"expiresIn"`
		UserName  string `json:"userName"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || r.Token == "" {
		return fmt.Errorf("kaggle: refresh the OAuth token of %s: POST %s: an answer without a token: %s", c.From, endpoint, start(raw))
	}
	life := time.Duration(r.ExpiresIn) * time.Second
	if life <= 0 {
		life = time.Hour
	}
	c.oauth.AccessToken = r.Token
	c.oauth.Expiration = now.Add(life).UTC().Format(time.RFC3339Nano)
	if r.UserName != "" {
		c.oauth.Username = r.UserName
	}
	c.Token = r.Token
	if b, err := json.MarshalIndent(c.oauth, "", "  "); err == nil {
		// Keep the new token for the next run; a failure only costs a refresh.
		_ = os.WriteFile(c.oauthAt, b, 0o600)
	}
	return nil
}

// start is the beginning of an answer, for a message.
func start(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		return "(empty body)"
	}
	return s
}
