package dto

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The messages expected are what the reference answered to PUT
// /api/system-config and PUT /api/people/{id} with the same values.

var (
	jobSettings = NewClass("JobSettingsDto", Field("concurrency", As(IsInt()), As(IsPositive())))
	trash       = NewClass("SystemConfigTrashDto",
		Field("enabled", ValidateBoolean(false)),
		Field("days", As(IsInt()), As(Min(0)), TypeNumber()),
	)
	settings = NewClass("SystemConfigDto",
		Field("trash", ValidateNested(trash, false), As(IsObject())),
		Field("job", ValidateNested(jobSettings, false), As(IsObject())),
		Field("url", As(IsURL())),
	)
)

func TestMoreRules(t *testing.T) {
	for _, tt := range []struct {
		name string
		body string
		want any
	}{
		{"sections absent", `{"url":"http://ml:3003"}`, Problems{"trash must be an object", "job must be an object"}},
		{"a section no object", `{"trash":5,"job":{"concurrency":1},"url":"http://ml:3003"}`, Problems{"trash must be an object", "nested property trash must be either object or array"}},
		{"numbers from strings", `{"trash":{"enabled":"true","days":" 7 "},"job":{"concurrency":1},"url":"http://ml:3003"}`, nil},
		{"a string no number", `{"trash":{"enabled":true,"days":"x"},"job":{"concurrency":1},"url":"http://ml:3003"}`, Problems{"trash.days must not be less than 0", "trash.days must be an integer number"}},
		{"a negative string", `{"trash":{"enabled":true,"days":"-1"},"job":{"concurrency":1},"url":"http://ml:3003"}`, Problems{"trash.days must not be less than 0"}},
		{"true is 1", `{"trash":{"enabled":true,"days":true},"job":{"concurrency":1},"url":"http://ml:3003"}`, nil},
		{"null is no number", `{"trash":{"enabled":true,"days":null},"job":{"concurrency":0},"url":"not a url"}`, Problems{
			"trash.days must not be less than 0", "trash.days must be an integer number", "job.concurrency must be a positive number", "url must be a URL address"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := settings.Decode([]byte(tt.body))
			if tt.want == nil {
				require.NoError(t, err)
				return
			}
			assert.Equal(t, tt.want, err)
		})
	}
	b, err := settings.Decode([]byte(`{"trash":{"enabled":"true","days":" 7 "},"job":{"concurrency":1},"url":"app.immich:/"}`))
	require.NoError(t, err)
	days, ok := b["trash"].(Body).Int64("days")
	assert.True(t, ok)
	assert.EqualValues(t, 7, days)

	for _, u := range []string{"http://immich-machine-learning:3003", "https://example.com/x", "app.immich:/", "example.com"} {
		assert.True(t, IsURL().check(u), u)
	}
	for _, u := range []any{"not a url", "", 5, ".com", "http://"} {
		assert.False(t, IsURL().check(u), "%v", u)
	}
}

func TestMaxDate(t *testing.T) {
	now := func() time.Time { return time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC) }
	person := NewClass("PersonUpdateDto",
		Field("birthDate", As(MaxDate(now, "Birth date cannot be in the future")), ValidateDate(ValidateDateOptions{Optional: true, Nullable: true})),
		Field("code", As(Check(func(v any) bool { return v == "ok" }, "$property is not ok")), Optional()),
	)
	_, err := person.Decode([]byte(`{"birthDate":"2099-01-01","code":"no"}`))
	assert.Equal(t, Problems{"Birth date cannot be in the future", "code is not ok"}, err)
	_, err = person.Decode([]byte(`{"birthDate":"2026-11-21","code":"ok"}`))
	assert.NoError(t, err)
	_, err = person.Decode([]byte(`{"birthDate":null}`))
	assert.NoError(t, err)
}
