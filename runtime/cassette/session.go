package cassette

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
)

// Mode is what a Session does with its cassette.
type Mode int

const (
	// Replay answers every request from the cassette, with no network.
	Replay Mode = iota
	// Record makes the requests and writes the cassette on Close.
	Record
)

// RecordEnv is the environment variable that makes ModeFromEnv record:
// GRAMC_RECORD=1 go test ./... re-records every cassette.
const RecordEnv = "GRAMC_RECORD"

// ModeFromEnv is Record when GRAMC_RECORD is 1 or true, Replay otherwise.
func ModeFromEnv() Mode {
	switch os.Getenv(RecordEnv) {
	case "1", "true":
		return Record
	}
	return Replay
}

// ReplayKey is the API key to give a provider client in Replay mode,
// where no key is needed and none should be required.
const ReplayKey = "cassette-replay"

// Session is one cassette file in use. Give Client to the provider
// client (clientopt.WithHTTPClient), run, then Close.
type Session struct {
	Path   string
	Mode   Mode
	Client *http.Client

	rec *Recorder
	rep *Replayer
}

// Open starts a session on the cassette at path. In Replay mode the file
// must exist; in Record mode it is written (replaced) by Close. secrets
// (the configured API key) never reach the file, and are replaced in a
// replayed request before it is compared.
func Open(path string, mode Mode, secrets ...string) (*Session, error) {
	return OpenTransport(path, mode, nil, secrets...)
}

// OpenTransport is Open with the transport a recording makes its requests
// with (nil: http.DefaultTransport); a replay makes none.
func OpenTransport(path string, mode Mode, transport http.RoundTripper, secrets ...string) (*Session, error) {
	s := &Session{Path: path, Mode: mode}
	switch mode {
	case Record:
		s.rec = NewRecorder(transport, secrets...)
		s.Client = &http.Client{Transport: s.rec}
	case Replay:
		c, err := Load(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no cassette %s: record it first (gramc run --record %s, or %s=1 go test)", path, path, RecordEnv)
		}
		if err != nil {
			return nil, err
		}
		s.rep = NewReplayer(path, c, secrets...)
		s.Client = &http.Client{Transport: s.rep}
	default:
		return nil, fmt.Errorf("cassette: unknown mode %d", mode)
	}
	return s, nil
}

// Close finishes the session: a recording is saved; a replay that left
// recorded requests unmade is an error (the run behaved differently).
func (s *Session) Close() error {
	if s.rec != nil {
		return s.rec.Cassette().Save(s.Path)
	}
	if n := s.rep.Unused(); n > 0 {
		return fmt.Errorf("%s: the run ended with %d recorded request(s) not made: it behaves differently from the recording (%s)", s.Path, n, Advice)
	}
	return nil
}
