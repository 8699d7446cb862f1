package site_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gramc-dev/gramc/playground/site"
)

// TestPrecompress: the .gz holds the file and is the same bytes every
// time; the .br is there when the brotli command is, and decodes to the
// file.
func TestPrecompress(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "m.wasm")
	data := bytes.Repeat([]byte("\x00asm gramc module "), 5000)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var gz [2][]byte
	for i := range gz {
		if err := site.Precompress(name); err != nil {
			t.Fatal(err)
		}
		gz[i], _ = os.ReadFile(name + ".gz")
	}
	if !bytes.Equal(gz[0], gz[1]) {
		t.Error("two builds of the .gz differ")
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz[0]))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); !bytes.Equal(got, data) {
		t.Error("the .gz does not decode to the file")
	}
	if zr.Header.Name != "" || !zr.Header.ModTime.IsZero() {
		t.Errorf("the .gz header holds a name %q or a time %v", zr.Header.Name, zr.Header.ModTime)
	}
	if _, err := exec.LookPath("brotli"); err != nil {
		if _, err := os.Stat(name + ".br"); err == nil {
			t.Error("a .br without the brotli command")
		}
		t.Log("no brotli command: the .br is not written (apt-get install brotli)")
		return
	}
	out, err := exec.Command("brotli", "--decompress", "--stdout", name+".br").Output()
	if err != nil || !bytes.Equal(out, data) {
		t.Errorf("the .br does not decode to the file (%v)", err)
	}
}

// TestHandler: a precompressed copy is sent, as it is, to a client that
// accepts its encoding, with the encoded file's type; others get the
// file itself.
func TestHandler(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{"m.wasm": "plain", "m.wasm.br": "brotli", "m.wasm.gz": "gzip", "app.js": "js"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(site.Handler(dir))
	defer srv.Close()
	for _, tc := range []struct {
		path, accept          string
		body, encoding, ctype string
	}{
		{"/m.wasm", "gzip, deflate, br, zstd", "brotli", "br", "application/wasm"},
		{"/m.wasm", "gzip", "gzip", "gzip", "application/wasm"},
		{"/m.wasm", "br;q=0, gzip;q=0.5", "gzip", "gzip", "application/wasm"},
		{"/m.wasm", "identity", "plain", "", "application/wasm"},
		{"/m.wasm", "", "plain", "", "application/wasm"},
		{"/app.js", "gzip, br", "js", "", "text/javascript; charset=utf-8"},
		{"/m.wasm.gz", "", "gzip", "", ""},
	} {
		req, _ := http.NewRequest("GET", srv.URL+tc.path, nil)
		req.Header.Set("Accept-Encoding", tc.accept)
		// The transport would decode gzip itself only when it asked for it.
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != tc.body || resp.Header.Get("Content-Encoding") != tc.encoding ||
			(tc.ctype != "" && resp.Header.Get("Content-Type") != tc.ctype) || resp.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("GET %s (Accept-Encoding: %s): %q, Content-Encoding %q, Content-Type %q, Vary %q; want %q, %q, %q",
				tc.path, tc.accept, body, resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"), resp.Header.Get("Vary"), tc.body, tc.encoding, tc.ctype)
		}
	}
}

// FuzzHandler: any path and Accept-Encoding is answered without a panic,
// and nothing outside the site's directory is sent, compressed or not.
func FuzzHandler(f *testing.F) {
	f.Add("/m.wasm", "br, gzip")
	f.Add("/../secret", "gzip")
	f.Add("/%2e%2e/secret", "br;q=1")
	f.Add("//secret", "gzip;q=abc, br;q=-1, *")
	f.Add("/m.wasm/", ",,;;q=,")
	parent := f.TempDir()
	dir := filepath.Join(parent, "site")
	if err := os.Mkdir(dir, 0o755); err != nil {
		f.Fatal(err)
	}
	for name, text := range map[string]string{"site/m.wasm": "plain", "site/m.wasm.gz": "gzip", "secret": "SECRET", "secret.gz": "SECRET", "secret.br": "SECRET"} {
		if err := os.WriteFile(filepath.Join(parent, name), []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	h := site.Handler(dir)
	f.Fuzz(func(t *testing.T, path, accept string) {
		req := httptest.NewRequest("GET", "/", nil)
		req.URL.Path = path
		req.Header.Set("Accept-Encoding", accept)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if bytes.Contains(rec.Body.Bytes(), []byte("SECRET")) {
			t.Fatalf("GET %q (Accept-Encoding %q) sent a file outside the site", path, accept)
		}
	})
}
