package main

import (
	"archive/zip"
	"bytes"
	"crypto/md5"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// The credentials the fake Kaggle accepts; scripts set them.
const (
	cliKaggleToken = "KGAT_cli_test_secret_0123"
	cliKaggleUser  = "cli-user"
	cliKaggleKey   = "cli-key-secret-4567"
)

// kaggleFixtures are the answers recorded in the shapes each API
// generation uses, kept with the kaggle package's tests.
const kaggleFixtures = "../../sources/kaggle/testdata"

// cliKaggle plays Kaggle for the command-line scripts.
//
// "current" answers only POST /v1/<Service>/<Method> with a JSON body and
// a Bearer token; the legacy routes are gone (404). "legacy" answers only
// GET /api/v1/… with Basic auth; its current API refuses every credential
// (401), as Kaggle's refuses a legacy key.
//
// Downloads redirect to storage on another host name, which wants no
// credentials and sends X-Goog-Hash. Modes: "stall-cut" makes storage
// stall past the idle timeout on the first try and cut the body on the
// next two; "shape" makes the search answer JSON of an unknown shape.
type cliKaggle struct {
	ts      *testscript.TestScript
	gen     string
	stall   bool
	shape   bool
	storage string // storage's root, on another host name

	mu    sync.Mutex
	calls []string
	tries map[string]int // storage requests per object
	// rainVersion is the newest version of pub/rain, the public dataset
	// anyone may download without credentials (publish raises it).
	rainVersion int
	// tampered: every version of pub/rain now holds other bytes, as a
	// mirror that rewrote its files would serve them.
	tampered bool
}

// publicRain is the fake's public dataset: it answers GetDataset,
// ListDatasetFiles, DownloadDataset and DownloadDatasetFile without
// credentials, each version with bytes of its own.
const publicRain = "pub/rain"

// publish makes a new version of pub/rain, as its owner would; tamper
// instead rewrites the bytes of every version.
func (k *cliKaggle) publish(tamper bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if tamper {
		k.tampered = true
		return
	}
	k.rainVersion++
}

func (k *cliKaggle) tamperMark() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.tampered {
		return "t"
	}
	return ""
}

// rain answers the public dataset's calls; ok is false for other calls.
func (k *cliKaggle) rain(w http.ResponseWriter, r *http.Request, method string, req map[string]any) bool {
	str := func(key string) string { s, _ := req[key].(string); return s }
	if str("ownerSlug")+"/"+str("datasetSlug") != publicRain {
		return false
	}
	k.mu.Lock()
	newest := k.rainVersion
	k.mu.Unlock()
	version := newest
	if v, ok := req["datasetVersionNumber"].(float64); ok {
		version = int(v)
	}
	if version < 1 || version > newest {
		k.answer(w, http.StatusNotFound, `{"code":404,"message":"Dataset version not found"}`)
		return true
	}
	switch method {
	case "datasets.DatasetApiService/GetDataset":
		json.NewEncoder(w).Encode(map[string]any{"ref": publicRain, "title": "Rain", "licenseName": "CC0: Public Domain", "currentVersionNumber": newest})
	case "datasets.DatasetApiService/ListDatasetFiles":
		fmt.Fprint(w, `{"datasetFiles":[{"name":"rain.csv","totalBytes":60},{"name":"stations.csv","totalBytes":40}]}`)
	case "datasets.DatasetApiService/DownloadDataset":
		k.redirect(w, r, fmt.Sprintf("%s/v%d%s", publicRain, version, k.tamperMark()))
	case "datasets.DatasetApiService/DownloadDatasetFile":
		k.redirect(w, r, fmt.Sprintf("%s/v%d%s/%s", publicRain, version, k.tamperMark(), path.Base(str("fileName"))))
	default:
		return false
	}
	return true
}

func newCLIKaggle(ts *testscript.TestScript, gen string, modes []string) *cliKaggle {
	k := &cliKaggle{ts: ts, gen: gen, tries: map[string]int{}, rainVersion: 1}
	for _, m := range modes {
		switch m {
		case "stall-cut":
			k.stall = true
		case "shape":
			k.shape = true
		default:
			ts.Fatalf("serve kaggle: unknown mode %q (want stall-cut or shape)", m)
		}
	}
	return k
}

func (k *cliKaggle) log(line string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls = append(k.calls, line)
}

func (k *cliKaggle) takeCalls() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	c := k.calls
	k.calls = nil
	return c
}

// authKind names the credential a request carried, never its value: a
// wrong one is "wrong".
func authKind(r *http.Request) string {
	h := r.Header.Get("Authorization")
	switch {
	case h == "":
		return "none"
	case h == "Bearer "+cliKaggleToken:
		return "Bearer"
	}
	if u, p, ok := r.BasicAuth(); ok && u == cliKaggleUser && p == cliKaggleKey {
		return "Basic"
	}
	return "wrong"
}

func (k *cliKaggle) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body []byte
	if r.Body != nil {
		body, _ = readAllLimit(r)
	}
	auth := authKind(r)
	line := fmt.Sprintf("%s %s %s", r.Method, r.URL.Path, auth)
	if r.URL.RawQuery != "" {
		line += " ?" + r.URL.RawQuery
	}
	if len(body) > 0 {
		line += " " + string(body)
	}
	if rg := r.Header.Get("Range"); rg != "" {
		line += " range=" + rg
	}
	k.log(line)

	if obj, ok := strings.CutPrefix(r.URL.Path, "/storage/"); ok {
		k.serveStorage(w, r, obj)
		return
	}
	if rpc, ok := strings.CutPrefix(r.URL.Path, "/v1/"); ok {
		if k.gen == "current" && auth != "wrong" && r.Method == http.MethodPost {
			var req map[string]any
			if json.Unmarshal(body, &req) == nil && k.rain(w, r, rpc, req) {
				return
			}
		}
		if k.gen != "current" || auth != "Bearer" {
			k.answer(w, http.StatusUnauthorized, `{"code":401,"message":"Unauthenticated"}`)
			return
		}
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "POST a JSON body", http.StatusMethodNotAllowed)
			return
		}
		var req map[string]any
		if err := json.Unmarshal(body, &req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		k.rpc(w, r, rpc, req)
		return
	}
	if p, ok := strings.CutPrefix(r.URL.Path, "/api/v1/"); ok && k.gen == "legacy" {
		if auth != "Basic" {
			k.answer(w, http.StatusUnauthorized, `{"code":401,"message":"Unauthenticated"}`)
			return
		}
		k.legacy(w, r, p)
		return
	}
	http.NotFound(w, r)
}

func readAllLimit(r *http.Request) ([]byte, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(http.MaxBytesReader(nil, r.Body, 1<<20))
	return b.Bytes(), err
}

func (k *cliKaggle) answer(w http.ResponseWriter, code int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	fmt.Fprint(w, body)
}

func (k *cliKaggle) fixture(w http.ResponseWriter, name string) {
	b, err := os.ReadFile(filepath.Join(kaggleFixtures, name))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

func (k *cliKaggle) rpc(w http.ResponseWriter, r *http.Request, method string, req map[string]any) {
	str := func(key string) string { s, _ := req[key].(string); return s }
	ref := str("ownerSlug") + "/" + str("datasetSlug")
	switch method {
	case "datasets.DatasetApiService/ListDatasets":
		switch {
		case k.shape:
			k.fixture(w, "rpc_unknown_shape.json")
		case str("pageToken") == "CAIQAQ":
			k.fixture(w, "rpc_list_datasets_page2.json")
		case req["page"] == 1.0 && str("pageToken") == "":
			k.fixture(w, "rpc_list_datasets_page1.json")
		default:
			fmt.Fprint(w, "{}") // how the current API sends an empty page
		}
	case "datasets.DatasetApiService/GetDataset":
		k.dataset(w, ref)
	case "datasets.DatasetApiService/ListDatasetFiles":
		k.datasetFiles(w, ref)
	case "datasets.DatasetApiService/DownloadDataset":
		k.redirect(w, r, ref)
	case "competitions.CompetitionApiService/GetCompetition":
		if c := str("competitionName"); c != "titanic-comp" && c != "rules-comp" {
			k.answer(w, http.StatusNotFound, `{"code":404,"message":"Competition not found"}`)
			return
		}
		k.fixture(w, "rpc_competition.json")
	case "competitions.CompetitionApiService/ListDataFiles":
		k.fixture(w, "rpc_competition_files.json")
	case "competitions.CompetitionApiService/DownloadDataFiles":
		k.competitionDownload(w, r, str("competitionName"))
	default:
		k.answer(w, http.StatusNotFound, `{"code":404,"message":"no such method"}`)
	}
}

func (k *cliKaggle) legacy(w http.ResponseWriter, r *http.Request, p string) {
	switch {
	case p == "datasets/list":
		switch r.URL.Query().Get("page") {
		case "1":
			k.fixture(w, "datasets_list_page1.json")
		case "2":
			k.fixture(w, "datasets_list_page2.json")
		default:
			fmt.Fprint(w, "[]")
		}
	case strings.HasPrefix(p, "datasets/view/"):
		k.dataset(w, strings.TrimPrefix(p, "datasets/view/"))
	case strings.HasPrefix(p, "datasets/list/"):
		k.datasetFiles(w, strings.TrimPrefix(p, "datasets/list/"))
	case strings.HasPrefix(p, "datasets/download/"):
		k.redirect(w, r, strings.TrimPrefix(p, "datasets/download/"))
	case p == "competitions/data/list/titanic-comp" || p == "competitions/data/list/rules-comp":
		k.fixture(w, "competition_files.json")
	case strings.HasPrefix(p, "competitions/data/download-all/"):
		k.competitionDownload(w, r, strings.TrimPrefix(p, "competitions/data/download-all/"))
	default:
		http.NotFound(w, r)
	}
}

// knownDatasets are the datasets the fake holds beyond the search
// fixtures' (whose downloads are made up from their names).
var knownDatasets = map[string]string{"alice/titanic-survival": "CC0: Public Domain"}

func (k *cliKaggle) dataset(w http.ResponseWriter, ref string) {
	lic, ok := knownDatasets[ref]
	if !ok {
		k.answer(w, http.StatusNotFound, `{"code":404,"message":"Dataset not found"}`)
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"ref": ref, "title": "Titanic Survival", "licenseName": lic, "currentVersionNumber": 3,
		"url": "https://www.kaggle.com/datasets/" + ref})
}

func (k *cliKaggle) datasetFiles(w http.ResponseWriter, ref string) {
	name := path.Base(ref) + ".csv"
	json.NewEncoder(w).Encode(map[string]any{"datasetFiles": []map[string]any{{"ref": name, "name": name, "totalBytes": 40}}})
}

func (k *cliKaggle) redirect(w http.ResponseWriter, r *http.Request, ref string) {
	http.Redirect(w, r, k.storage+"/storage/"+ref, http.StatusFound)
}

func (k *cliKaggle) competitionDownload(w http.ResponseWriter, r *http.Request, slug string) {
	if slug == "rules-comp" {
		k.answer(w, http.StatusForbidden, mustRead(filepath.Join(kaggleFixtures, "rpc_error_rules.json")))
		return
	}
	k.redirect(w, r, "competition/"+slug)
}

func mustRead(p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// archiveOf is the zip storage holds for a dataset or competition: a CSV
// named after it, with rows of its own so that every archive differs.
func archiveOf(obj string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	add := func(name, body string) {
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	if rest, ok := strings.CutPrefix(obj, publicRain+"/v"); ok {
		v, file, _ := strings.Cut(rest, "/")
		rain := fmt.Sprintf("day,mm\n1,%s\n2,%s\n3,7\n", v, v)
		if t, ok := strings.CutSuffix(v, "t"); ok {
			rain = fmt.Sprintf("day,mm\n1,%s\n2,%s\n3,8\n", t, t)
		}
		stations := "id,city\n1,Oslo\n2,Bergen\n"
		switch file {
		case "rain.csv":
			return []byte(rain) // a single file is served as it is
		case "stations.csv":
			return []byte(stations)
		}
		add("rain.csv", rain)
		add("stations.csv", stations)
		zw.Close()
		return buf.Bytes()
	}
	switch obj {
	case "competition/titanic-comp":
		add("train.csv", "PassengerId,Survived,Age\n1,0,22\n2,1,38\n3,1,26\n")
		add("test.csv", "PassengerId,Age\n4,35\n5,54\n")
	default:
		var rows strings.Builder
		rows.WriteString("id,name,value\n")
		for i := range 40 {
			fmt.Fprintf(&rows, "%d,%s,%d\n", i, path.Base(obj), i*len(obj))
		}
		add(path.Base(obj)+".csv", rows.String())
	}
	zw.Close()
	return buf.Bytes()
}

// serveStorage answers from byte Range's start. In stall-cut mode the
// first try stalls after a third of the rest and the next two cut the
// body after a third of the rest.
func (k *cliKaggle) serveStorage(w http.ResponseWriter, r *http.Request, obj string) {
	if r.Header.Get("Authorization") != "" {
		http.Error(w, "storage takes no credentials", http.StatusBadRequest)
		return
	}
	body := archiveOf(obj)
	k.mu.Lock()
	k.tries[obj]++
	try := k.tries[obj]
	k.mu.Unlock()
	from := 0
	if rg, ok := strings.CutPrefix(r.Header.Get("Range"), "bytes="); ok {
		n, err := strconv.Atoi(strings.TrimSuffix(rg, "-"))
		if err != nil || n > len(body) {
			http.Error(w, "bad range", http.StatusBadRequest)
			return
		}
		if n == len(body) {
			w.Header().Set("Content-Range", fmt.Sprintf("bytes */%d", len(body)))
			w.WriteHeader(http.StatusRequestedRangeNotSatisfiable)
			return
		}
		from = n
	}
	sum := md5.Sum(body)
	crc := binary.BigEndian.AppendUint32(nil, crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)))
	w.Header().Set("X-Goog-Hash", "crc32c="+base64.StdEncoding.EncodeToString(crc)+",md5="+base64.StdEncoding.EncodeToString(sum[:]))
	w.Header().Set("Content-Type", "application/zip")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)-from))
	code := http.StatusOK
	if from > 0 {
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, len(body)-1, len(body)))
		code = http.StatusPartialContent
	}
	w.WriteHeader(code)
	rest := body[from:]
	if !k.stall || try > 3 {
		w.Write(rest)
		return
	}
	w.Write(rest[:len(rest)/3])
	if try == 1 {
		w.(http.Flusher).Flush()
		select { // stall until the client gives up
		case <-r.Context().Done():
			k.log("storage: the client gave up on the stalled body")
		case <-time.After(10 * time.Second):
			k.log("storage: the client waited out the stall")
		}
	}
	// Returning short of Content-Length cuts the connection.
}
