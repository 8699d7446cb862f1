// Package devserver is the gramc-temporal-dev command
// (cmd/gramc-temporal-dev is its main): a real Temporal server for
// development, every service in one process on SQLite, listening on
// 127.0.0.1 only. It is a command of its own, apart from gramc-temporal's
// worker and run, because it links the whole Temporal server
// (go.temporal.io/server): building it takes five times the CPU time of
// building gramc-temporal (docs/durable.md, docs/performance.md).
//
//	gramc-temporal-dev [--port PORT] [--namespace NS] [--db-filename FILE]
package devserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/gramc-dev/gramc/temporal/internal/command"
	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/server/common/cluster"
	"go.temporal.io/server/common/config"
	"go.temporal.io/server/common/dynamicconfig"
	tlog "go.temporal.io/server/common/log"
	"go.temporal.io/server/common/log/tag"
	"go.temporal.io/server/common/metrics"
	sqliteplugin "go.temporal.io/server/common/persistence/sql/sqlplugin/sqlite"
	sqliteschema "go.temporal.io/server/schema/sqlite"
	"go.temporal.io/server/temporal"
)

// Main runs gramc-temporal-dev with args (without the program name) and
// returns its exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	return command.Run(devCmd(stderr), "gramc-temporal-dev", args, stdout, stderr)
}

// devHost is where gramc-temporal dev listens: the loopback interface only.
const devHost = "127.0.0.1"

// devConfig is what gramc-temporal dev starts.
type devConfig struct {
	port      int    // the frontend's port (0: one the system chooses)
	namespace string // registered at start
	dbFile    string // "" keeps the data in memory

	// pickPorts chooses the server's ports (freePorts; a test's own to
	// have one taken).
	pickPorts func(n, not int) ([]int, error)
}

// devServer is a Temporal server in this process, on SQLite, with every
// service (frontend, history, matching, worker) on the loopback
// interface: what `temporal server start-dev` runs, with no other
// program to install.
type devServer struct {
	srv     temporal.Server
	address string
}

// startDev starts a development server as cfg says.
func startDev(cfg devConfig) (*devServer, error) {
	if cfg.port != 0 {
		// Refuse a port in use with a clear message, before the server's
		// own services each fail on it.
		ln, err := net.Listen("tcp", net.JoinHostPort(devHost, strconv.Itoa(cfg.port)))
		if err != nil {
			return nil, fmt.Errorf("cannot listen on %s:%d (another Temporal server? choose another with --port): %w", devHost, cfg.port, err)
		}
		ln.Close()
	}

	sql, err := devStore(cfg)
	if err != nil {
		return nil, err
	}
	ns, err := sqliteschema.NewNamespaceConfig("active", cfg.namespace, false, nil)
	if err != nil {
		return nil, err
	}
	if err := sqliteschema.CreateNamespaces(sql, ns); err != nil {
		return nil, fmt.Errorf("registering namespace %s: %w", cfg.namespace, err)
	}
	pick := cfg.pickPorts
	if pick == nil {
		pick = freePorts
	}
	// The services' other ports are chosen here and bound seconds later,
	// by the server: another program (another test's dev server) may
	// take one in between. That start fails with "address already in
	// use"; it is tried again on other ports.
	for attempt := 1; ; attempt++ {
		// Each service's gRPC port and membership port, in turn; the
		// frontend's gRPC port is --port's unless that is 0.
		ports, err := pick(2*len(devServices), cfg.port)
		if err != nil {
			return nil, err
		}
		if cfg.port != 0 {
			ports[0] = cfg.port
		}
		address := net.JoinHostPort(devHost, strconv.Itoa(ports[0]))
		services := map[string]config.Service{}
		for i, name := range devServices {
			services[name] = config.Service{RPC: config.RPC{GRPCPort: ports[2*i], MembershipPort: ports[2*i+1], BindOnIP: devHost}}
		}
		srv, err := startServer(func() (temporal.Server, error) {
			return temporal.NewServer(
				temporal.WithConfig(serverConfig(sql, address, services)),
				temporal.ForServices(temporal.DefaultServices),
				temporal.WithLogger(fatalLogger{tlog.NewNoopLogger()}),
				temporal.WithCustomMetricsHandler(metrics.NoopMetricsHandler),
				temporal.WithDynamicConfigClient(dynamicconfig.StaticClient{}),
			)
		})
		if err == nil {
			return &devServer{srv: srv, address: address}, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) || attempt == startAttempts {
			return nil, err
		}
	}
}

// devStore is the dev server's SQLite store: in memory, or cfg.dbFile
// (set up when it is new).
func devStore(cfg devConfig) (*config.SQL, error) {
	sql := &config.SQL{PluginName: sqliteplugin.PluginName, ConnectAttributes: map[string]string{}}
	if cfg.dbFile == "" {
		sql.DatabaseName = fmt.Sprintf("gramc-dev-%d", os.Getpid())
		sql.ConnectAttributes["mode"] = "memory"
		sql.ConnectAttributes["cache"] = "shared"
	} else {
		abs, err := filepath.Abs(cfg.dbFile)
		if err != nil {
			return nil, err
		}
		sql.DatabaseName = abs
		sql.ConnectAttributes["mode"] = "rwc"
		// A missing file, or an empty one (touch FILE, a fresh mktemp),
		// is a new database: its schema is set up. Anything else is kept.
		fi, err := os.Stat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode().IsRegular() && fi.Size() == 0:
			if _, err := os.Stat(filepath.Dir(abs)); err != nil {
				return nil, fmt.Errorf("--db-filename %s: %w", cfg.dbFile, err)
			}
			if err := sqliteschema.SetupSchema(sql); err != nil {
				return nil, fmt.Errorf("--db-filename %s: setting up the schema: %w", cfg.dbFile, err)
			}
		case err != nil:
			return nil, fmt.Errorf("--db-filename %s: %w", cfg.dbFile, err)
		case !fi.Mode().IsRegular():
			return nil, fmt.Errorf("--db-filename %s: not a regular file", cfg.dbFile)
		}
	}
	return sql, nil
}

// devServices are the Temporal services gramc-temporal-dev runs, the
// frontend first.
var devServices = []string{"frontend", "history", "matching", "worker"}

// startAttempts bounds the starts tried when a port chosen for the
// server is taken before the server binds it.
const startAttempts = 3

// serverConfig is the dev server's configuration: its SQLite store, its
// frontend's address and its services' ports.
func serverConfig(sql *config.SQL, address string, services map[string]config.Service) *config.Config {
	return &config.Config{
		Global: config.Global{Membership: config.Membership{MaxJoinDuration: 30 * time.Second, BroadcastAddress: devHost}},
		Persistence: config.Persistence{
			DefaultStore: sqliteplugin.PluginName, VisibilityStore: sqliteplugin.PluginName, NumHistoryShards: 1,
			DataStores: map[string]config.DataStore{sqliteplugin.PluginName: {SQL: sql}},
		},
		ClusterMetadata: &cluster.Config{
			FailoverVersionIncrement: 10, MasterClusterName: "active", CurrentClusterName: "active",
			ClusterInformation: map[string]cluster.ClusterInformation{"active": {Enabled: true, InitialFailoverVersion: 1, RPCAddress: address}},
		},
		DCRedirectionPolicy: config.DCRedirectionPolicy{Policy: "noop"},
		Services:            services,
		Archival: config.Archival{
			History:    config.HistoryArchival{State: "disabled"},
			Visibility: config.VisibilityArchival{State: "disabled"},
		},
		NamespaceDefaults: config.NamespaceDefaults{Archival: config.ArchivalNamespaceDefaults{
			History:    config.HistoryArchivalNamespaceDefaults{State: "disabled"},
			Visibility: config.VisibilityArchivalNamespaceDefaults{State: "disabled"},
		}},
		PublicClient: config.PublicClient{HostPort: address},
	}
}

// startServer makes a server with newServer and starts it. A Fatal of
// its logger meanwhile (a service that cannot listen: its port taken in
// the meantime) is the error returned: the Temporal server opens its
// listeners both while it is made (each service's membership) and while
// it starts (gRPC).
func startServer(newServer func() (temporal.Server, error)) (srv temporal.Server, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(*serverFatal)
			if !ok {
				panic(r)
			}
			srv, err = nil, f
		}
	}()
	if srv, err = newServer(); err != nil {
		return nil, err
	}
	return srv, srv.Start()
}

// fatalLogger is the dev server's logger: silent, except that Fatal
// stops with its message (a *serverFatal panic, which startServer
// returns as the error). The no-op logger's Fatal returned, and the
// server went on, e.g. to serve a listener it had failed to open: a nil
// pointer panic inside the server instead of "address already in use".
type fatalLogger struct{ tlog.Logger }

func (fatalLogger) Fatal(msg string, tags ...tag.Tag) { panic(&serverFatal{msg: msg, tags: tags}) }

// serverFatal is a Fatal of the Temporal server's logger, as an error.
// It wraps the error among its tags (errors.Is(err, syscall.EADDRINUSE)
// for a listener that could not bind).
type serverFatal struct {
	msg  string
	tags []tag.Tag
}

func (f *serverFatal) Error() string {
	s := "the Temporal server cannot go on: " + f.msg
	for _, t := range f.tags {
		s += fmt.Sprintf("; %s: %v", t.Key(), t.Value())
	}
	return s
}

func (f *serverFatal) Unwrap() error {
	for _, t := range f.tags {
		if z, ok := t.(tag.ZapTag); ok {
			if err, ok := z.Field().Interface.(error); ok {
				return err
			}
		}
	}
	return nil
}

// FreePort is a port of the loopback interface no one listens on now.
// The server binds it seconds later, so it is taken below the
// ephemeral range (Linux's is 32768-60999; others start higher) when one
// is free there: a port the system hands out for bind(0) or for the
// local end of an outgoing connection may be taken again in between, a
// port below that range only by a program that names it.
func FreePort() (int, error) {
	ports, err := freePorts(1, 0)
	if err != nil {
		return 0, err
	}
	return ports[0], nil
}

// freePorts is n different free ports (FreePort's), none of them not (a
// port already promised; 0 for none): not and each port chosen are held
// until all are chosen, so that none is chosen twice.
func freePorts(n, not int) ([]int, error) {
	var held []net.Listener
	defer func() {
		for _, ln := range held {
			ln.Close()
		}
	}()
	listen := func(p int) (int, bool) {
		ln, err := net.Listen("tcp", net.JoinHostPort(devHost, strconv.Itoa(p)))
		if err != nil {
			return 0, false
		}
		held = append(held, ln)
		return ln.Addr().(*net.TCPAddr).Port, true
	}
	if not != 0 {
		listen(not)
	}
	ports := make([]int, 0, n)
	for len(ports) < n {
		p, ok := 0, false
		for range 64 {
			if p, ok = listen(belowEphemeral + rand.IntN(ephemeralStart-belowEphemeral)); ok {
				break
			}
		}
		if !ok {
			if p, ok = listen(0); !ok {
				return nil, fmt.Errorf("no free port on %s", devHost)
			}
		}
		ports = append(ports, p)
	}
	return ports, nil
}

// The ports FreePort tries first: [belowEphemeral, ephemeralStart).
const (
	belowEphemeral = 20000
	ephemeralStart = 32768
)

// Ready waits until the Temporal frontend at address answers for
// namespace (bounded by ctx).
func Ready(ctx context.Context, address, namespace string) error {
	for {
		// Each attempt is bounded, so that one made before the server
		// listens does not hold up the next.
		actx, cancel := context.WithTimeout(ctx, time.Second)
		c, err := client.DialContext(actx, client.Options{HostPort: address, Namespace: namespace,
			Logger: log.NewStructuredLogger(slog.New(slog.DiscardHandler))})
		if err == nil {
			_, err = c.CheckHealth(actx, &client.CheckHealthRequest{})
			c.Close()
		}
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the server at %s did not answer: %w", address, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func devCmd(stderr io.Writer) *cobra.Command {
	var cfg devConfig
	cmd := &cobra.Command{
		Use:   "gramc-temporal-dev [--port PORT] [--namespace NS] [--db-filename FILE]",
		Short: "Run a Temporal server for development in this process, on 127.0.0.1, until interrupted",
		Long: `gramc-temporal-dev starts a real Temporal server (every service, on SQLite) in this
process, listening on 127.0.0.1 only, prints its address, and serves until
interrupted: what workers and runs need on one machine, with nothing else
to install. The data is in memory unless --db-filename names a file, which
keeps the runs across restarts. For production, use a Temporal cluster or
Temporal Cloud. Workers and runs are gramc-temporal's.`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cfg.port < 0 || cfg.port > 65535 {
				return command.UsageError{Err: fmt.Errorf("--port %d: not a port", cfg.port)}
			}
			if cfg.namespace == "" {
				return command.UsageError{Err: errors.New("--namespace must not be empty")}
			}
			d, err := startDev(cfg)
			if err != nil {
				return err
			}
			defer d.srv.Stop() //nolint:errcheck // exiting
			ctx, cancel := context.WithTimeout(cmd.Context(), time.Minute)
			err = Ready(ctx, d.address, cfg.namespace)
			cancel()
			if cmd.Context().Err() != nil {
				return nil // interrupted: the server stops cleanly
			}
			if err != nil {
				return err
			}
			data := "in memory (gone when it stops; --db-filename FILE keeps it)"
			if cfg.dbFile != "" {
				data = "in " + cfg.dbFile
			}
			fmt.Fprintf(stderr, "gramc-temporal-dev: Temporal server at %s (namespace %s), data %s; interrupt to stop\n", d.address, cfg.namespace, data)
			<-cmd.Context().Done()
			return nil
		},
	}
	cmd.Flags().IntVar(&cfg.port, "port", 7233, "the frontend's port on 127.0.0.1 (0: any free port)")
	cmd.Flags().StringVar(&cfg.namespace, "namespace", client.DefaultNamespace, "the namespace to register")
	cmd.Flags().StringVar(&cfg.dbFile, "db-filename", "", "keep the server's data in this SQLite `FILE` (created when missing) instead of memory")
	return cmd
}
