package cassette_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/gramc-dev/gramc/runtime/cassette"
)

// Open records a session's exchanges to a cassette file and replays them
// without a network; a request that differs from the recording fails,
// naming the first difference. An Example stands alone (godoc shows its
// body whole), so its set-up parallels compat's ExampleCompare and the
// runtime's ExampleRun rather than sharing a helper.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "cassette")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "weather.cassette.json")
	// A local server stands in for the provider.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"answer": "sunny"}`)
	}))
	post := func(s *cassette.Session, body string) (string, error) {
		resp, err := s.Client.Post(srv.URL+"/v1/ask", "application/json", strings.NewReader(body))
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}

	// Record: the request goes to the server; Close writes the cassette
	// (the key given never reaches it).
	s, err := cassette.Open(path, cassette.Record, "sk-secret")
	if err != nil {
		log.Fatal(err)
	}
	if _, err := post(s, `{"city": "Paris"}`); err != nil {
		log.Fatal(err)
	}
	if err := s.Close(); err != nil {
		log.Fatal(err)
	}
	srv.Close() // from here on, no network

	// Replay: the same request is answered from the cassette.
	s, err = cassette.Open(path, cassette.Replay, "sk-secret")
	if err != nil {
		log.Fatal(err)
	}
	answer, err := post(s, `{"city": "Paris"}`)
	fmt.Println(answer, err)
	_, err = post(s, `{"city": "Lyon"}`)
	var mismatch *cassette.MismatchError
	fmt.Println(errors.As(err, &mismatch))
	// Output:
	// {"answer": "sunny"} <nil>
	// true
}
