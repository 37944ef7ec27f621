package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mediaspec/mediaspec/mockserver/internal/store"
	"github.com/mediaspec/mediaspec/mockserver/model"
)

// ReadDataset reads a dataset document (what GET /__mock/dataset answers and
// `serve --fixtures` loads) and checks that it holds together. An error names
// the problem and where it is: a line and column, or the record.
func ReadDataset(data []byte) (model.Dataset, error) {
	var d model.Dataset
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		offset := dec.InputOffset()
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			offset = se.Offset - 1 // the offending character, not the one after it
		case errors.As(err, &te):
			offset = te.Offset
		case errors.Is(err, io.EOF):
			return d, fmt.Errorf("the dataset is empty")
		}
		line, col := position(data, offset)
		return d, fmt.Errorf("line %d, column %d: %w", line, col, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		line, col := position(data, dec.InputOffset())
		return d, fmt.Errorf("line %d, column %d: data after the dataset's closing brace", line, col)
	}
	if err := store.Check(d); err != nil {
		return d, err
	}
	return d, nil
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - bytes.LastIndexByte(before, '\n')
	return line, col
}
