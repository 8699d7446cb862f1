package eval

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gramc-dev/gramc/check"
	"github.com/gramc-dev/gramc/internal/browsertest"
	"github.com/gramc-dev/gramc/internal/golden"
	"github.com/gramc-dev/gramc/runtime/runtimetest"
)

// The browser test reuses the playground's: its npm packages
// (playground/site/testdata/browser, installed by make
// playground-test-setup) and its Chromium.
var npmDir = filepath.Join("..", "playground", "site", "testdata", "browser")

// TestHTMLReportInBrowser opens an HTML report of a real eval (three
// variants of the seeded fake, with prices) in Chromium with
// playwright-core (testdata/browser/report.js): it renders both charts,
// fetches nothing, and every number it shows — each cell's rate,
// interval, pass^k, counts and cost, each bar and error bar, each
// variant's point, each comparison — is the JSON report's. Under
// GRAMC_UPDATE=1 it writes the screenshot docs/eval-report.png.
func TestHTMLReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	modules, _ := filepath.Abs(filepath.Join(npmDir, "node_modules"))
	browser := browsertest.Require(t, modules, "playwright-core")
	dir := t.TempDir()
	r := browserReport(t)
	write := func(name string, render func(f *os.File) error) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := render(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return path
	}
	jsonPath := write("report.json", func(f *os.File) error { return r.WriteJSON(f) })
	htmlPath := write("report.html", func(f *os.File) error { return r.WriteHTML(f) })
	shot := ""
	if golden.Update() {
		shot, _ = filepath.Abs(filepath.Join("..", "docs", "eval-report.png"))
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "browser", "report.js"))
	browsertest.Run(t, browser, modules, script, map[string]any{"json": jsonPath, "html": htmlPath,
		"screenshot": shot, "plotWidth": chartPlotWidth, "scatter": scatterSize}, nil)
}

// browserReport is an eval of three models of the seeded fake on two
// tests, priced.
func browserReport(t *testing.T) *Report {
	tests := loadTests(t, pkg)
	c := &runtimetest.Chance{Seed: 11, Success: map[string]float64{"gpt-4.1": 0.92, "gpt-4.1-mini": 0.8, "gpt-4.1-nano": 0.55}}
	_, opts := fakeServer(t, c)
	variants := []Variant{modelVariant("OpenAI/gpt-4.1"), modelVariant("OpenAI/gpt-4.1-mini"), modelVariant("OpenAI/gpt-4.1-nano")}
	prices := Prices{"OpenAI/gpt-4.1": {Input: 2, Output: 8}, "OpenAI/gpt-4.1-mini": {Input: 0.4, Output: 1.6}, "OpenAI/gpt-4.1-nano": {Input: 0.1, Output: 0.4}}
	r, err := Run(context.Background(), []*check.Test{tests["echoes"], tests["greets"]}, variants, Options{Runs: 40, K: 5, Concurrency: 8, ClientOptions: opts, Prices: prices})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
