package compat_test

import (
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/codegen/schema"
	"github.com/gramc-dev/gramc/compat"
)

// FuzzReadSnapshot: hostile snapshots (seeded with what gramc schema
// writes for the rule cases, for every target) never panic the reader;
// one that reads compares with itself as no change, and with a package
// and under every target without a panic.
func FuzzReadSnapshot(f *testing.F) {
	var base []*check.Package
	for i, c := range ruleCases {
		p := pkgs(f, c.old)
		if i == len(ruleCases)-1 {
			base = p
		}
		for _, target := range schema.Targets() {
			if data, err := schema.Emit(p[0].Tools, target); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte(`{"tools": [{"name": "a", "inputSchema": {"type": "object", "properties": {"r": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/A"}}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		snap, err := compat.ReadSnapshot("f.json", data)
		if err != nil {
			return
		}
		if c := compat.Compare(snap.Packages, snap.Packages); len(c) != 0 {
			t.Errorf("a snapshot compared with itself: %v", summary(c))
		}
		again, err := compat.ReadSnapshot("f.json", data)
		if err != nil {
			t.Fatalf("read once, not twice: %v", err)
		}
		if c := compat.Compare(snap.Packages, again.Packages); len(c) != 0 {
			t.Errorf("two reads differ: %v", summary(c))
		}
		all := compat.Compare(snap.Packages, base)
		compat.CompareTargets(snap.Packages, base, all, schema.Targets())
		for _, c := range all {
			snap.Pointer(c.Old)
		}
	})
}
