package runtimetest

import (
	"fmt"
	"net/http"
)

type responsesDialect struct{ anthropicDialect }

func (responsesDialect) decode(f *Fake, r *http.Request, body []byte) (*Turn, error) {
	return nil, fmt.Errorf("TODO")
}
