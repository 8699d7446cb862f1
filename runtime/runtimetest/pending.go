package runtimetest

import (
	"fmt"
	"net/http"
)

type responsesDialect struct{ anthropicDialect }
type geminiDialect struct{ anthropicDialect }

func (responsesDialect) decode(f *Fake, r *http.Request, body []byte) (*Turn, error) {
	return nil, fmt.Errorf("TODO")
}
func (geminiDialect) decode(f *Fake, r *http.Request, body []byte) (*Turn, error) {
	return nil, fmt.Errorf("TODO")
}
