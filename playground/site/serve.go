package site

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// encodings are the precompressed files Handler sends, preferred first:
// the file's name with the suffix, and its Content-Encoding.
var encodings = []struct{ suffix, coding string }{{".br", "br"}, {".gz", "gzip"}}

// Handler serves the site in dir as a static file server does, and, for
// a file with a precompressed copy beside it (Precompress's name.br,
// name.gz) and a client that accepts its encoding, sends that copy as it
// is, with Content-Encoding and the type of the file it encodes (a
// browser then decompresses it while it compiles the module). This is
// what make playground-serve runs; docs/playground.md says how other
// servers do the same.
func Handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := path.Clean("/" + r.URL.Path)
		w.Header().Add("Vary", "Accept-Encoding")
		if (r.Method == http.MethodGet || r.Method == http.MethodHead) && !strings.HasSuffix(p, "/") {
			accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
			for _, e := range encodings {
				if !accepted[e.coding] {
					continue
				}
				f, err := os.Open(filepath.Join(dir, filepath.FromSlash(p)+e.suffix))
				if err != nil {
					continue
				}
				defer f.Close()
				fi, err := f.Stat()
				if err != nil || fi.IsDir() {
					continue
				}
				ctype := mime.TypeByExtension(path.Ext(p))
				if ctype == "" {
					ctype = "application/octet-stream"
				}
				w.Header().Set("Content-Type", ctype)
				w.Header().Set("Content-Encoding", e.coding)
				http.ServeContent(w, r, p, fi.ModTime(), f)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// acceptedEncodings reads an Accept-Encoding header (RFC 9110 §12.5.3):
// the codings it names with a weight above zero.
func acceptedEncodings(h string) map[string]bool {
	ok := map[string]bool{}
	for _, part := range strings.Split(h, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		q := 1.0
		for _, prm := range strings.Split(params, ";") {
			k, v, _ := strings.Cut(prm, "=")
			if strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		ok[coding] = q > 0
	}
	return ok
}
