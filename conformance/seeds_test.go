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

// seedRules are two scenarios holding every rule of the shared link data a
// client relies on, as shared_links_data.feature states them (the Then of
// each of its scenarios, in their words), judged on the links a seeded
// user has, without the links that feature's background makes: a seed
// judges its whole listing once. The rule on copies of an asset is a
// scenario of its own: the reference's shapes list no album's assets, and
// a listing without copies skips it, saying so.
func seedRules(t *testing.T) fs.FS {
	t.Helper()
	text, err := fs.ReadFile(features.FS(), "shared_links_data.feature")
	require.NoError(t, err)
	var rules, copies []string
	for line := range strings.Lines(string(text)) {
		rule, ok := strings.CutPrefix(strings.TrimSpace(line), "Then ")
		switch {
		case ok && strings.Contains(rule, "appears more than once"):
			copies = append(copies, "And "+rule)
		case ok:
			rules = append(rules, "And "+rule)
		}
	}
	require.NotEmpty(t, rules, "shared_links_data.feature states its rules with Then")
	require.Len(t, copies, 1, "shared_links_data.feature states its rule on copies with Then")
	given := "    Given I use my API key\n    When the shared links I have\n    "
	feature := "Feature: Every rule of the shared link data\n\n" +
		"  Scenario: Every rule holds\n" + given + strings.Join(rules, "\n    ") + "\n\n" +
		"  Scenario: Copies of an asset agree\n" + given + copies[0] + "\n"
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
func TestEverySeedHoldsTheRules(t *testing.T) {
	t.Parallel()
	rules := seedRules(t)
	validator, err := spec.Load(t.Context())
	require.NoError(t, err)
	for _, links := range []int{12, 30} {
		t.Run(fmt.Sprint(links, " links"), func(t *testing.T) {
			t.Parallel()
			for seed := int64(1); seed <= 200; seed++ {
				d := fake.Generate(fake.Options{Seed: seed, Anchor: anchor, Links: links, Users: 3, APIKey: apiKey})
				assert.Empty(t, fake.Check(d), "seed %d, %d links: fixtures --check", seed, links)
				// Odd seeds in the reference's shapes, even ones in the
				// mock's full shapes: both modes, at the cost of one run a
				// seed under the race detector.
				referenceShapes := seed%2 == 1
				res, err := conformance.Run(t.Context(), conformance.Config{
					Target:    serveDataset(t, d, referenceShapes),
					APIKey:    apiKey,
					Features:  rules,
					Validator: validator,
				})
				require.NoError(t, err)
				require.Len(t, res.Scenarios, 2)
				for _, s := range res.Scenarios {
					if referenceShapes && s.Status == conformance.Skipped && strings.Contains(s.SkipReason, "there are no copies to compare") {
						continue
					}
					assert.Equal(t, conformance.Passed, s.Status, "seed %d, %d links, reference shapes %t: %s: %s", seed, links, referenceShapes, s.Name, s.Failure)
				}
			}
		})
	}
}
