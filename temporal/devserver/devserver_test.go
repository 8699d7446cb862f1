package devserver

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	tlog "go.temporal.io/server/common/log"
	"go.temporal.io/server/common/log/tag"
)

// TestFreePort: the port is free on the loopback interface and, as one is
// free there on any test machine, below the ephemeral range, where
// neither bind(0) nor an outgoing connection can take it before the dev
// server binds it.
func TestFreePort(t *testing.T) {
	for range 20 {
		p, err := FreePort()
		if err != nil {
			t.Fatal(err)
		}
		if p < belowEphemeral || p >= ephemeralStart {
			t.Errorf("port %d: want one in [%d, %d)", p, belowEphemeral, ephemeralStart)
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(devHost, strconv.Itoa(p)))
		if err != nil {
			t.Fatalf("port %d is not free: %v", p, err)
		}
		ln.Close()
	}
}

// fatalStart is a server whose start meets a Fatal of its logger, as the
// Temporal server's does when a service cannot listen.
type fatalStart struct{ log tlog.Logger }

func (s fatalStart) Start() error {
	s.log.Fatal("Failed to start ringpop listener", tag.Error(errors.New("listen tcp 127.0.0.1:1: bind: address already in use")))
	return nil // the no-op logger's Fatal came back here, and the server went on
}

func (fatalStart) Stop() error { return nil }

// TestStartServerFatal: a Fatal while the server starts is startServer's
// error, with the server's message and its tags, not a panic.
func TestStartServerFatal(t *testing.T) {
	err := startServer(fatalStart{fatalLogger{tlog.NewNoopLogger()}})
	var f *serverFatal
	if !errors.As(err, &f) || !strings.Contains(err.Error(), "the Temporal server cannot go on: Failed to start ringpop listener; error: listen tcp 127.0.0.1:1: bind: address already in use") {
		t.Errorf("startServer: %v", err)
	}
}

// TestDBFileEmpty (issue 44, Low): --db-filename naming an existing empty
// file (touch FILE, mktemp) initialises it as a new database, as a missing
// one is. A directory is refused, naming the flag.
func TestDBFileEmpty(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	file := filepath.Join(t.TempDir(), "dev.db")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := startDev(devConfig{namespace: "default", dbFile: file})
	if err != nil {
		t.Fatalf("an empty file: %v", err)
	}
	if err := d.srv.Stop(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(file); err != nil || fi.Size() == 0 {
		t.Errorf("the database file after the server: %v, %v", fi, err)
	}
	if _, err := startDev(devConfig{namespace: "default", dbFile: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "--db-filename") {
		t.Errorf("a directory: %v", err)
	}
}
