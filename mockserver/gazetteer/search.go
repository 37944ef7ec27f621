package gazetteer

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// strictThreshold is pg_trgm's strict_word_similarity_threshold, which
// the reference's place search (the %>> operator) leaves at its default.
const strictThreshold = 0.5

// Search finds the places whose city or state matches name as the
// reference's place search does (pg_trgm's strict word similarity,
// accents ignored): a run of whole words of the city or the state at
// least half as alike as the name, the most alike first, at most limit.
func Search(name string, limit int) []Place {
	query := trigrams(name)
	if len(query) == 0 {
		return nil
	}
	type found struct {
		p        *Place
		distance float64
	}
	var hits []found
	for i := range places {
		p := &places[i]
		city, state := strictSimilarity(query, p.City), strictSimilarity(query, p.State)
		if city < strictThreshold && state < strictThreshold {
			continue
		}
		hits = append(hits, found{p, (1 - city) + (1 - state)})
	}
	slices.SortStableFunc(hits, func(a, b found) int { return cmp.Compare(a.distance, b.distance) })
	out := make([]Place, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, *h.p)
	}
	return out
}

// strictSimilarity is pg_trgm's strict_word_similarity of a query's
// trigrams and text: the best of every run of whole words of text.
func strictSimilarity(query map[string]bool, text string) float64 {
	words := wordsOf(text)
	best := 0.0
	for i := range words {
		extent := map[string]bool{}
		for j := i; j < len(words); j++ {
			for _, t := range wordTrigrams(words[j]) {
				extent[t] = true
			}
			best = max(best, jaccard(query, extent))
		}
	}
	return best
}

// jaccard is how alike two sets of trigrams are: what they share of all
// they hold.
func jaccard(a, b map[string]bool) float64 {
	shared := 0
	for t := range a {
		if b[t] {
			shared++
		}
	}
	all := len(a) + len(b) - shared
	if all == 0 {
		return 0
	}
	return float64(shared) / float64(all)
}

// trigrams is the set of trigrams of every word of s.
func trigrams(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range wordsOf(s) {
		for _, t := range wordTrigrams(w) {
			out[t] = true
		}
	}
	return out
}

// wordTrigrams is a word's trigrams as pg_trgm pads it: two spaces
// before, one after.
func wordTrigrams(w string) []string {
	r := []rune("  " + w + " ")
	out := make([]string, 0, len(r)-2)
	for i := 0; i+3 <= len(r); i++ {
		out = append(out, string(r[i:i+3]))
	}
	return out
}

// wordsOf is s without accents, in lower case, cut into its words of
// letters and digits (f_unaccent, then pg_trgm's words).
func wordsOf(s string) []string {
	plain, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
	if err != nil {
		plain = s
	}
	return strings.FieldsFunc(strings.ToLower(plain), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
