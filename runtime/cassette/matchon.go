package cassette

import (
	"encoding/json"

	"github.com/gramc-dev/gramc/internal/jsonpath"
	"github.com/gramc-dev/gramc/internal/jsonvalue"
)

// IgnorePaths makes the replayer ignore the parts of each request's body
// that paths name when it compares a request with the recorded one
// ($.temperature, $.metadata.user, $.messages[*].name), as VCR's
// match_on does: a change there does not fail the replay.
func (r *Replayer) IgnorePaths(paths ...string) error {
	parsed := make([]jsonpath.Path, 0, len(paths))
	for _, s := range paths {
		p, err := jsonpath.Parse(s)
		if err != nil {
			return err
		}
		parsed = append(parsed, p)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ignore = append(r.ignore, parsed...)
	return nil
}

// IgnorePaths is Replayer.IgnorePaths of a replaying session (a
// recording compares nothing).
func (s *Session) IgnorePaths(paths ...string) error {
	if s.rep == nil || len(paths) == 0 {
		return nil
	}
	return s.rep.IgnorePaths(paths...)
}

// difference is firstDifference of the two requests with the ignored
// parts of their bodies removed.
func (r *Replayer) difference(rec, got Request) MismatchError {
	r.mu.Lock()
	ignore := r.ignore
	r.mu.Unlock()
	if len(ignore) > 0 {
		rec.Body, got.Body = without(rec.Body, ignore), without(got.Body, ignore)
	}
	return firstDifference(rec, got)
}

// without is the JSON body with the parts paths name removed (the body
// as it is when it is not JSON).
func without(body []byte, paths []jsonpath.Path) []byte {
	v, err := jsonvalue.Decode(body)
	if err != nil {
		return body
	}
	for _, p := range paths {
		jsonpath.Remove(v, p)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}
