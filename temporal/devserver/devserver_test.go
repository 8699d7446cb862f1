package devserver

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	tlog "go.temporal.io/server/common/log"
	"go.temporal.io/server/common/log/tag"
	"go.temporal.io/server/temporal"
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
type fatalStart struct {
	log tlog.Logger
	err error
}

func (s fatalStart) Start() error {
	s.log.Fatal("Failed to start gRPC listener", tag.Error(s.err))
	return nil // the no-op logger's Fatal came back here, and the server went on
}

func (fatalStart) Stop() error { return nil }

// TestStartServerFatal: a Fatal while the server is made (the services'
// membership listeners; what a CI run met) or while it starts (gRPC) is
// startServer's error, with the server's message and its tags and
// wrapping the listener's error, not a panic.
func TestStartServerFatal(t *testing.T) {
	taken, err := net.Listen("tcp", net.JoinHostPort(devHost, "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	_, inUse := net.Listen("tcp", taken.Addr().String())
	if !errors.Is(inUse, syscall.EADDRINUSE) {
		t.Fatalf("listening twice on %s: %v", taken.Addr(), inUse)
	}
	logger := fatalLogger{tlog.NewNoopLogger()}
	for name, newServer := range map[string]func() (temporal.Server, error){
		"made": func() (temporal.Server, error) {
			logger.Fatal("Failed to start ringpop listener", tag.Error(inUse))
			return nil, nil
		},
		"started": func() (temporal.Server, error) { return fatalStart{logger, inUse}, nil },
	} {
		srv, err := startServer(newServer)
		var f *serverFatal
		if srv != nil || !errors.As(err, &f) || !errors.Is(err, syscall.EADDRINUSE) ||
			!strings.Contains(err.Error(), "the Temporal server cannot go on: Failed to start ") ||
			!strings.Contains(err.Error(), "; error: "+inUse.Error()) {
			t.Errorf("%s: startServer: %v, %v", name, srv, err)
		}
	}
}

// TestFreePorts: the ports chosen for one server are different, and not
// the one named.
func TestFreePorts(t *testing.T) {
	for range 20 {
		ports, err := freePorts(8, belowEphemeral)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{belowEphemeral: true}
		for _, p := range ports {
			if seen[p] {
				t.Fatalf("%v: %d twice or the one refused", ports, p)
			}
			seen[p] = true
		}
	}
}

// TestStartPortTaken: a port chosen for the server and taken before the
// server binds it (another test's dev server, on a CI run) does not stop
// the start: it is tried again on other ports.
func TestStartPortTaken(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	taken, err := net.Listen("tcp", net.JoinHostPort(devHost, "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	picks := 0
	pick := func(n, not int) ([]int, error) {
		picks++
		ports, err := freePorts(n, not)
		if picks == 1 && err == nil {
			ports[1] = taken.Addr().(*net.TCPAddr).Port // the frontend's membership port
		}
		return ports, err
	}
	d, err := startDev(devConfig{namespace: "default", pickPorts: pick})
	if err != nil {
		t.Fatalf("startDev: %v", err)
	}
	defer d.srv.Stop()
	if picks != 2 {
		t.Errorf("ports picked %d times, want 2", picks)
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
