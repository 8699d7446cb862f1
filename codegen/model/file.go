package model

import (
	"bytes"
	"io"
)

// A File is one generated file.
type File struct {
	// Name is the file's base name, e.g. "weather.gram.go".
	Name     string
	Contents []byte
}

// Collect runs an emitter's streaming form, generateTo, with every file
// written to memory, and returns the files in the order it opened them:
// each language's Generate is Collect of its GenerateTo.
func Collect(generateTo func(open func(name string) (io.Writer, error)) error) ([]File, error) {
	var files []File
	var bufs []*bytes.Buffer
	err := generateTo(func(name string) (io.Writer, error) {
		files = append(files, File{Name: name})
		bufs = append(bufs, &bytes.Buffer{})
		return bufs[len(bufs)-1], nil
	})
	if err != nil {
		return nil, err
	}
	for i := range files {
		files[i].Contents = bufs[i].Bytes()
	}
	return files, nil
}
