package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func init() {
	// gramc-status runs gramc and then prints its exit status on stderr,
	// so scripts can tell exit 1 (problems) from exit 2 (usage, I/O).
	scriptCommands["gramc-status"] = func() {
		code := Main()
		fmt.Fprintf(os.Stderr, "[exit status %d]\n", code)
		os.Exit(code)
	}
}

func TestFmtUnifiedDiff(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "x\n", "x\n", ""},
		{"change in middle",
			"1\n2\n3\n4\n5\n6\n7\n8\n9\n",
			"1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"--- a\n+++ b\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"two hunks",
			"a\n1\n2\n3\n4\n5\n6\n7\nb\n",
			"A\n1\n2\n3\n4\n5\n6\n7\nB\n",
			"--- a\n+++ b\n@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -6,4 +6,4 @@\n 5\n 6\n 7\n-b\n+B\n"},
		{"merged hunks",
			"a\n1\n2\n3\nb\n",
			"A\n1\n2\n3\nB\n",
			"--- a\n+++ b\n@@ -1,5 +1,5 @@\n-a\n+A\n 1\n 2\n 3\n-b\n+B\n"},
		{"insert into empty", "", "x\n", "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+x\n"},
		{"delete all", "x\ny\n", "", "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-x\n-y\n"},
		{"no newline at end", "x", "x\n", "--- a\n+++ b\n@@ -1,1 +1,1 @@\n-x\n\\ No newline at end of file\n+x\n"},
		{"lcs keeps common lines",
			"a\nb\nc\nd\n",
			"b\nx\nd\ne\n",
			"--- a\n+++ b\n@@ -1,4 +1,4 @@\n-a\n b\n-c\n+x\n d\n+e\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(fmtUnifiedDiff("a", "b", []byte(tt.a), []byte(tt.b)))
			if got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestFmtUnifiedDiffLarge checks that a change too large for the LCS table
// still gives a correct (if coarse) diff.
func TestFmtUnifiedDiffLarge(t *testing.T) {
	var a, b strings.Builder
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	got := string(fmtUnifiedDiff("a", "b", []byte(a.String()), []byte(b.String())))
	if !strings.HasPrefix(got, "--- a\n+++ b\n@@ -1,3000 +1,3000 @@\n-a0\n") || !strings.HasSuffix(got, "+b2999\n") {
		t.Errorf("unexpected large diff: %.200s ... %s", got, got[len(got)-50:])
	}
}

// TestFmtWriteFile: fmt -w writes in place as gofmt -w does (issue 12.11):
// the file keeps its inode (hard links, mode), a read-only file is
// refused and left alone, a directory or a missing file is an error, and
// no backup file is left behind.
//
// Parallel to runtime/cassette's TestSaveNotThroughPlantedLink: the same
// set-up (a file, a link beside it), there to check that Save does not
// write through a planted symbolic link, here that fmt -w keeps a hard one.
func TestFmtWriteFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.gram")
	if err := os.WriteFile(name, []byte("old contents\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "hardlink.gram")
	if err := os.Link(name, link); err != nil {
		t.Skip("no hard links here:", err)
	}
	if err := fmtWriteFile(name, []byte("old contents\n"), []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{name, link} {
		got, err := os.ReadFile(n)
		if err != nil || string(got) != "new\n" {
			t.Fatalf("%s after write: %q, %v (hard link broken?)", n, got, err)
		}
	}
	if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode not kept: %v, %v", fi.Mode(), err)
	}

	ro := filepath.Join(dir, "ro.gram")
	os.WriteFile(ro, []byte("x\n"), 0o444)
	if os.Getuid() != 0 { // root writes read-only files anyway, as gofmt does
		if err := fmtWriteFile(ro, []byte("x\n"), []byte("y\n")); err == nil {
			t.Error("a read-only file was rewritten")
		}
		if got, _ := os.ReadFile(ro); string(got) != "x\n" {
			t.Errorf("read-only file changed: %q", got)
		}
	}

	target := filepath.Join(dir, "sub")
	if err := os.MkdirAll(filepath.Join(target, "keep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fmtWriteFile(target, nil, []byte("x\n")); err == nil {
		t.Fatal("writing over a directory succeeded")
	}
	if err := fmtWriteFile(filepath.Join(dir, "missing.gram"), nil, []byte("x\n")); err == nil {
		t.Error("writing a missing file succeeded")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		switch e.Name() {
		case "a.gram", "hardlink.gram", "ro.gram", "sub":
		default:
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// TestWriteChangedSinceRead: gramc fmt -w and gramc check --fix write a
// file back only if it still holds what they read (issue 35.2): a file
// saved meanwhile (here by the hook, between reading and writing) keeps
// what was saved, the command says so and exits 2, and no temporary or
// backup file is left.
func TestWriteChangedSinceRead(t *testing.T) {
	const saved = "(b)\n"
	for _, tc := range []struct {
		name, src string
		args      []string
		say       string
	}{
		{"fmt", "(   a   )\n", []string{"fmt", "-w"}, "gramc fmt: "},
		{"check", "[weather:Tool {description: Sunny} |\n  (city::String)==>(::String)\n]\n", []string{"check", "--fix"}, "gramc check: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "a.gram")
			if err := os.WriteFile(name, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			fmtBeforeCommit = func(string) { os.WriteFile(name, []byte(saved), 0o644) }
			defer func() { fmtBeforeCommit = nil }()
			var stdout, stderr strings.Builder
			code := Do(append(tc.args, name), strings.NewReader(""), &stdout, &stderr)
			if got, _ := os.ReadFile(name); string(got) != saved {
				t.Errorf("the file saved meanwhile was overwritten: %q", got)
			}
			if code != ExitUsage || !strings.Contains(stderr.String(), tc.say+name+": changed since gramc read it; left as it is") {
				t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("left behind: %v", entries)
			}
		})
	}
}

// TestWriteInterrupted: until a rewrite is committed, the file holds its
// original text (issue 35.3): a file with one link is replaced by a
// rename, and a hard-linked one, rewritten in place, has its original in
// a backup beside it.
func TestWriteInterrupted(t *testing.T) {
	for _, linked := range []bool{false, true} {
		dir := t.TempDir()
		name := filepath.Join(dir, "a.gram")
		os.WriteFile(name, []byte("(   a   )\n"), 0o644)
		if linked {
			if err := os.Link(name, filepath.Join(dir, "b.gram")); err != nil {
				t.Skip("no hard links here:", err)
			}
		}
		var during []byte
		var backups []string
		fmtBeforeCommit = func(string) {
			during, _ = os.ReadFile(name)
			backups, _ = filepath.Glob(name + ".gramc-backup-*")
		}
		var stdout, stderr strings.Builder
		code := Do([]string{"fmt", "-w", name}, strings.NewReader(""), &stdout, &stderr)
		fmtBeforeCommit = nil
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		if string(during) != "(   a   )\n" {
			t.Errorf("linked=%v: before the commit the file held %q, not its original", linked, during)
		}
		if linked != (len(backups) == 1) {
			t.Errorf("linked=%v: backups %v", linked, backups)
		}
		if got, _ := os.ReadFile(name); string(got) != "(a)\n" {
			t.Errorf("linked=%v: after: %q", linked, got)
		}
	}
}
