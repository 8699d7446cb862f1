package lsp

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"go.lsp.dev/uri"

	"github.com/gramc-dev/gramc/diag"
	"github.com/gramc-dev/gramc/docs"
)

// docsDir is a copy of the documentation pages embedded in gramc, written
// once per version of them under the user's cache directory, so that a
// diagnostic's codeDescription opens its explanation offline in the
// editor (what gramc explain prints). "" when it cannot be written: the
// diagnostics then carry no link.
var docsDir = sync.OnceValue(func() string {
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	h := sha256.New()
	fs.WalkDir(docs.Pages, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := docs.Pages.ReadFile(path)
			h.Write([]byte(path))
			h.Write(data)
		}
		return nil
	})
	dir := filepath.Join(base, "gramc", "docs-"+hex.EncodeToString(h.Sum(nil))[:12])
	if _, err := os.Stat(filepath.Join(dir, "diagnostics.md")); err == nil {
		return dir
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "docs-tmp-")
	if err != nil {
		if os.MkdirAll(filepath.Dir(dir), 0o755) != nil {
			return ""
		}
		if tmp, err = os.MkdirTemp(filepath.Dir(dir), "docs-tmp-"); err != nil {
			return ""
		}
	}
	ents, _ := docs.Pages.ReadDir(".")
	for _, e := range ents {
		data, _ := docs.Pages.ReadFile(e.Name())
		if os.WriteFile(filepath.Join(tmp, e.Name()), data, 0o644) != nil {
			os.RemoveAll(tmp)
			return ""
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, err := os.Stat(filepath.Join(dir, "diagnostics.md")); err != nil {
			return "" // neither ours nor another server's copy
		}
	}
	return dir
})

// docLink is the codeDescription of a code: its section in the local copy
// of the pages ("" when there is none).
func docLink(info diag.CodeInfo) uri.URI {
	dir := docsDir()
	if dir == "" {
		return ""
	}
	page, anchor, _ := strings.Cut(info.Anchor(), "#")
	u := uri.File(filepath.Join(dir, page))
	if anchor != "" {
		u += uri.URI("#" + anchor)
	}
	return u
}
