package diag

import (
	"fmt"
	"io"
	"slices"
)

// Formats are the formats Render writes, as gramc check's --format names
// them: text for people, a JSON array, GitHub Actions annotations.
var Formats = []string{"text", "json", "github"}

// RenderOptions controls Render.
type RenderOptions struct {
	// Format is one of Formats; "" is text.
	Format string
	// All reports every diagnostic (gramc -e). Without it at most
	// MaxSameCode of a code in a file are reported (Bounded), or, for
	// text with Text.MaxPerFile set, at most that many of a file.
	All bool
	// SeeAll says how to see them all in the diagnostic that counts those
	// left out ("; -e reports all"); "" where there is no way.
	SeeAll string
	// Text is how text is written (colour, excerpts, a terminal's limit
	// per file).
	Text TextOptions
}

// Shown is ds (sorted) as Render bounds it: at most MaxSameCode of a
// code in a file unless opts.All, or, for text with Text.MaxPerFile set,
// all of them (WriteText then shows that many of a file).
func (opts RenderOptions) Shown(ds Diagnostics) Diagnostics {
	if opts.All || (opts.Format == "" || opts.Format == "text") && opts.Text.MaxPerFile > 0 {
		return ds
	}
	return Bounded(ds, MaxSameCode, opts.SeeAll)
}

// Render writes ds (sorted) to w as gramc reports diagnostics: bounded,
// then in the format; text ends with the count line of them all (and is
// nothing when there are none), JSON is "[]" when there are none. It is
// the one last step of every report — gramc check's, every command's on
// standard error, the playground's.
func Render(w io.Writer, ds Diagnostics, opts RenderOptions) error {
	shown := opts.Shown(ds)
	switch opts.Format {
	case "json":
		return WriteJSON(w, shown)
	case "github":
		return WriteGitHub(w, shown)
	case "", "text":
		if len(ds) == 0 {
			return nil
		}
		if err := WriteText(w, shown, opts.Text); err != nil {
			return err
		}
		_, err := fmt.Fprintln(w, CountLine(ds))
		return err
	}
	return fmt.Errorf("diagnostics format %q: want one of %v", opts.Format, slices.Clone(Formats))
}
