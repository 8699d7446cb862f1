package cli

import (
	"runtime/debug"
	"testing"
)

func TestFormatVersion(t *testing.T) {
	vcs := []debug.BuildSetting{
		{Key: "vcs", Value: "git"},
		{Key: "vcs.revision", Value: "832e6b0d3c1a9f00aa11bb22cc33dd44ee55ff66"},
		{Key: "vcs.modified", Value: "true"},
	}
	for _, tc := range []struct {
		name, linked string
		bi           debug.BuildInfo
		want         string
	}{
		{"clone build", "devel", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs},
			"devel (832e6b0d3c1a, modified, go1.26.8)"},
		{"clean clone build", "devel", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}, Settings: vcs[:2]},
			"devel (832e6b0d3c1a, go1.26.8)"},
		{"go install module@version", "devel", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}},
			"v1.2.0 (go1.26.8)"},
		{"ldflags win", "v9.9.9", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}, Settings: vcs[:2]},
			"v9.9.9 (832e6b0d3c1a, go1.26.8)"},
		{"test binary", "devel", debug.BuildInfo{GoVersion: "go1.26.8"},
			"devel (go1.26.8)"},
	} {
		if got := formatVersion(tc.linked, &tc.bi); got != tc.want {
			t.Errorf("%s: formatVersion = %q, want %q", tc.name, got, tc.want)
		}
	}
}
