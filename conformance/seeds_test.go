package conformance_test

import (
	"fmt"
	"io/fs"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mediaspec/mediaspec/conformance"
	"github.com/mediaspec/mediaspec/features"
	"github.com/mediaspec/mediaspec/mockserver"
	"github.com/mediaspec/mediaspec/mockserver/fake"
	"github.com/mediaspec/mediaspec/mockserver/model"
	"github.com/mediaspec/mediaspec/spec"
)

// seedRules is one scenario holding every rule of the shared link data a
// client relies on, as shared_links_data.feature states them (the Then of
// each of its scenarios, in their words), judged on the links a seeded
// user has, without the links that feature's background makes: a seed
// judges its whole listing once. For the reference's shapes, which list
// no album's assets and so no copies of one, the rule on copies is left
// out (a listing without copies skips it, and with it the scenario).
func seedRules(t *testing.T, referenceShapes bool) fs.FS {
	t.Helper()
	text, err := fs.ReadFile(features.FS(), "shared_links_data.feature")
	require.NoError(t, err)
	var rules []string
	copies := 0
	for line := range strings.Lines(string(text)) {
		rule, ok := strings.CutPrefix(strings.TrimSpace(line), "Then ")
		if ok && strings.Contains(rule, "appears more than once") {
			copies++
			if referenceShapes {
				continue
			}
		}
		if ok {
			rules = append(rules, "And "+rule)
		}
	}
	require.NotEmpty(t, rules, "shared_links_data.feature states its rules with Then")
	require.Equal(t, 1, copies, "shared_links_data.feature states its rule on copies with Then")
	feature := "Feature: Every rule of the shared link data\n\n  Scenario: Every rule holds\n" +
		"    Given I use my API key\n    When the shared links I have\n    " + strings.Join(rules, "\n    ") + "\n"
	return fstest.MapFS{"rules.feature": {Data: []byte(feature)}}
}

// serveDataset starts a mock on d, keeping no uploads, in its full shapes
// or the reference's, and returns the API's base URL; it stops when the
// test (or subtest) ends.
func serveDataset(t *testing.T, d model.Dataset, referenceShapes bool) string {
	t.Helper()
	m, err := mockserver.New(mockserver.Config{Dataset: func() model.Dataset { return d }, ReferenceShapes: referenceShapes})
	require.NoError(t, err)
	srv := httptest.NewServer(m)
	t.Cleanup(func() {
		srv.Close()
		_ = m.Close()
	})
	return srv.URL + "/api"
}

// TestEverySeedHoldsTheRules: the data a mock of any seed answers holds
// every rule the harness judges of a listing, and every invariant
// `fixtures --check` checks, for seeds 1 to 200, with the default links
// and with 30. An album of seed 42 with 30 links once named a photo in
// the trash as its cover, which the listing does not show: no test
// looked past the default seed.
//
// Under the race detector it runs one seed in ten (both shapes, both
// link counts): the sweep finds faults of data, not of concurrency, and
// each seed costs ten times as much watched. make test runs the whole
// sweep once more without the detector.
func TestEverySeedHoldsTheRules(t *testing.T) {
	t.Parallel()
	rules := map[bool]fs.FS{false: seedRules(t, false), true: seedRules(t, true)}
	validator, err := spec.Load(t.Context())
	require.NoError(t, err)
	for _, links := range []int{12, 30} {
		t.Run(fmt.Sprint(links, " links"), func(t *testing.T) {
			t.Parallel()
			for seed := int64(1); seed <= 200; seed++ {
				if raceWatched && seed%20 > 1 {
					continue // seeds 1, 20, 21, 40, 41...: odd and even alike
				}
				checkSeed(t, seed, links, rules, validator)
			}
		})
	}
}

// checkSeed judges the data of one seed with links links: fixtures
// --check, then the listing's rules on a mock serving it. Odd seeds are
// served in the reference's shapes, even ones in the mock's full shapes:
// both modes, at the cost of one run a seed.
func checkSeed(t *testing.T, seed int64, links int, rules map[bool]fs.FS, validator *spec.Validator) {
	t.Helper()
	d := fake.Generate(fake.Options{Seed: seed, Anchor: anchor, Links: links, Users: 3, APIKey: apiKey})
	assert.Empty(t, fake.Check(d), "seed %d, %d links: fixtures --check", seed, links)
	referenceShapes := seed%2 == 1
	res, err := conformance.Run(t.Context(), conformance.Config{
		Target:    serveDataset(t, d, referenceShapes),
		APIKey:    apiKey,
		Features:  rules[referenceShapes],
		Validator: validator,
	})
	require.NoError(t, err)
	require.Len(t, res.Scenarios, 1)
	assert.Equal(t, conformance.Passed, res.Scenarios[0].Status, "seed %d, %d links, reference shapes %t: %s",
		seed, links, referenceShapes, res.Scenarios[0].Failure)
}
