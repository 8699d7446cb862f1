package credhttp

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A redirect to another port of the same host (another server) gets no
// credentials; a redirect within the origin keeps them.
func TestRedirectKeepsCredentialsOnTheOriginOnly(t *testing.T) {
	got := map[string]string{}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got["other"] = r.Header.Get("Authorization") + r.Header.Get("X-Api-Key")
	}))
	defer other.Close()
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
		case "/here":
			http.Redirect(w, r, "/final", http.StatusTemporaryRedirect)
		case "/final":
			got["final"] = r.Header.Get("Authorization") + r.Header.Get("X-Api-Key")
		}
	}))
	defer origin.Close()
	if !strings.HasPrefix(other.URL, "http://127.0.0.1:") || !strings.HasPrefix(origin.URL, "http://127.0.0.1:") {
		t.Skip("servers not on the same host")
	}
	c := Client(nil)
	for _, path := range []string{"/away", "/here"} {
		req, _ := http.NewRequest(http.MethodPost, origin.URL+path, strings.NewReader("{}"))
		req.Header.Set("Authorization", "Bearer sk-secret")
		req.Header.Set("X-Api-Key", "sk-secret")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if got["other"] != "" {
		t.Errorf("credentials reached another port: %q", got["other"])
	}
	if got["final"] != "Bearer sk-secretsk-secret" {
		t.Errorf("credentials lost on a same-origin redirect: %q", got["final"])
	}
}

func TestReadBody(t *testing.T) {
	data, err := ReadBody(strings.NewReader(strings.Repeat("x", 3<<20)), 2<<20)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "2 MiB") || len(data) != 2<<20 {
		t.Errorf("ReadBody over the limit: %d bytes, %v", len(data), err)
	}
	data, err = ReadBody(strings.NewReader("ok"), 2<<20)
	if err != nil || string(data) != "ok" {
		t.Errorf("ReadBody = %q, %v", data, err)
	}
}

func TestCheckKey(t *testing.T) {
	if err := CheckKey("sk-proj-abc_DEF.123"); err != nil {
		t.Errorf("a good key: %v", err)
	}
	for key, want := range map[string]string{
		"sk-abc\n": "line break at byte 7 of 7",
		"sk\tabc":  "control character at byte 3",
		"sk abc":   "space at byte 3",
	} {
		err := CheckKey(key)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "abc") {
			t.Errorf("CheckKey(%q) = %v, want %q without the key", key, err, want)
		}
	}
}
