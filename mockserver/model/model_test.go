package model

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTimeJSON(t *testing.T) {
	for _, tt := range []struct {
		in   time.Time
		want string
	}{
		{time.Date(2024, 5, 30, 9, 3, 7, 45_600_000, time.UTC), `"2024-05-30T09:03:07.045Z"`},
		{time.Date(2024, 5, 30, 23, 59, 59, 999_999_999, time.FixedZone("", 2*3600)), `"2024-05-30T21:59:59.999Z"`},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), `"0001-01-01T00:00:00.000Z"`},
		{time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), `"9999-12-31T00:00:00.000Z"`},
	} {
		b, err := json.Marshal(Time{tt.in})
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(b))
		assert.Equal(t, `"`+tt.in.UTC().Format(TimeLayout)+`"`, string(b), "the same as time.Format")
		var back Time
		require.NoError(t, json.Unmarshal(b, &back))
		assert.True(t, back.Equal(tt.in.Truncate(time.Millisecond)))
	}
}
