package gemini

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/gramc-dev/gramc/runtime"
	"github.com/gramc-dev/gramc/runtime/internal/apihttp"
	"github.com/gramc-dev/gramc/runtime/internal/sse"
)

// decodeStream reads a streamGenerateContent?alt=sse stream: each event a
// GenerateContentResponse with the next parts, the last one carrying the
// finishReason; the stream then ends.
func (c *Client) decodeStream(ctx context.Context, body io.Reader, emit func(runtime.Event)) (*runtime.Completion, error) {
	dec := sse.NewDecoder(body, apihttp.StreamLimits)
	var acc answer
	for n := 1; ; n++ {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, c.api.HTTP.StreamError(ctx, err)
		}
		c.api.HTTP.DebugData("event", ev.Data)
		var gr generateResponse
		if err := json.Unmarshal(ev.Data, &gr); err != nil {
			return nil, &runtime.APIError{Provider: "gemini", StatusCode: http.StatusOK,
				Message: "malformed stream event " + strconv.Itoa(n) + ": " + err.Error(), Err: err}
		}
		if gr.Error != nil {
			if e, ok := c.api.HTTP.BodyError(0, ev.Data); ok {
				e.Message = "error in the stream: " + e.Message
				return nil, e
			}
		}
		if err := acc.add(ctx, &gr, emit); err != nil {
			return nil, err
		}
	}
	if acc.finish == "" && acc.blocked == "" {
		if acc.text.Len() == 0 && len(acc.calls) == 0 {
			return nil, runtime.EmptyAnswer("gemini", "")
		}
		return nil, c.api.HTTP.Incomplete("no finishReason")
	}
	return acc.completion()
}
