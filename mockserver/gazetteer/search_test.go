package gazetteer

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSearch(t *testing.T) {
	names := func(query string) []string {
		out := []string{}
		for _, p := range Search(query, 20) {
			out = append(out, p.City)
		}
		return out
	}
	tests := []struct {
		query string
		first string
	}{
		{"Lisbon", "Lisbon"},
		{"lisb", "Lisbon"},
		{"ZÜRICH", "Zurich"},
		{"chamonix", "Chamonix-Mont-Blanc"},
		{"mont blanc", "Chamonix-Mont-Blanc"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got := names(tt.query)
			if assert.NotEmpty(t, got) {
				assert.Equal(t, tt.first, got[0])
			}
		})
	}
	assert.Contains(t, names("Bavaria"), "Munich", "a state names its cities")
	assert.Empty(t, names("xq"), "too unlike anything")
	assert.Empty(t, names("  "), "no word")
	assert.Len(t, Search("a", 3), min(3, len(Search("a", 100))), "at most limit")
}

func TestStrictSimilarity(t *testing.T) {
	// pg_trgm: strict_word_similarity('word', 'two words') is 0.571429.
	assert.InDelta(t, 0.571429, strictSimilarity(trigrams("word"), "two words"), 1e-6)
	assert.InDelta(t, 1.0, strictSimilarity(trigrams("paris"), "Paris"), 1e-9)
}
