package runtimetest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ReferenceSchemaEnv names an environment variable that, when set, is the
// path of openai-chat-tools.schema.json (by default it is found in the
// module's testdata/reference directory).
const ReferenceSchemaEnv = "GRAMC_OPENAI_REFERENCE_SCHEMA"

const referenceID = "https://gramc.dev/reference/openai-chat-tools.schema.json"

var (
	refOnce     sync.Once
	refRequest  *jsonschema.Schema
	refResponse *jsonschema.Schema
	refErr      error
)

// referencePath finds OpenAI's published schema: the environment variable,
// or testdata/reference in the module this file belongs to.
func referencePath() string {
	if p := os.Getenv(ReferenceSchemaEnv); p != "" {
		return p
	}
	_, file, _, ok := goruntime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "reference", "openai-chat-tools.schema.json")
}

func loadReference() error {
	refOnce.Do(func() {
		path := referencePath()
		data, err := os.ReadFile(path)
		if err != nil {
			refErr = fmt.Errorf("OpenAI reference schema not found (set %s): %w", ReferenceSchemaEnv, err)
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			refErr = fmt.Errorf("%s: %w", path, err)
			return
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource(referenceID, doc); err != nil {
			refErr = err
			return
		}
		if refRequest, err = c.Compile(referenceID + "#/components/schemas/CreateChatCompletionRequest"); err != nil {
			refErr = err
			return
		}
		refResponse, refErr = c.Compile(referenceID + "#/components/schemas/CreateChatCompletionResponse")
	})
	return refErr
}

// ValidateRequest checks body against OpenAI's published
// CreateChatCompletionRequest schema.
func ValidateRequest(body []byte) error {
	return validateRef(body, func() *jsonschema.Schema { return refRequest })
}

// ValidateResponse checks body against OpenAI's published
// CreateChatCompletionResponse schema.
func ValidateResponse(body []byte) error {
	return validateRef(body, func() *jsonschema.Schema { return refResponse })
}

func validateRef(body []byte, sch func() *jsonschema.Schema) error {
	if err := loadReference(); err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	if err := sch().Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return fmt.Errorf("%s", ve.Error())
		}
		return err
	}
	return nil
}
