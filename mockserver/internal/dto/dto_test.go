package dto

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The classes below are transcribed from the upstream's DTOs; the messages
// expected are what the reference server answered to the same bodies.

var (
	userCreate = NewClass("AlbumUserCreateDto",
		Field("userId", ValidateUUID(ValidateUUIDOptions{})),
		Field("role", As(IsEnum("editor", "viewer"))),
	)
	createAlbum = NewClass("CreateAlbumDto",
		Field("albumName", As(IsString())),
		Field("description", As(IsString()), Optional()),
		Field("albumUsers", Optional(), As(IsArray()), ValidateNested(userCreate, true)),
		Field("assetIds", ValidateUUID(ValidateUUIDOptions{Optional: true, Each: true})),
	)
	createLink = NewClass("SharedLinkCreateDto",
		Field("type", As(IsEnum("ALBUM", "INDIVIDUAL"))),
		Field("assetIds", ValidateUUID(ValidateUUIDOptions{Optional: true, Each: true})),
		Field("albumId", ValidateUUID(ValidateUUIDOptions{Optional: true})),
		Field("description", As(IsString()), Optional()),
		Field("password", As(IsString()), Optional()),
		Field("expiresAt", ValidateDate(ValidateDateOptions{Optional: true, Nullable: true})),
		Field("allowUpload", ValidateBoolean(true)),
		Field("allowDownload", ValidateBoolean(true)),
		Field("showMetadata", ValidateBoolean(true)),
	)
	login = NewClass("LoginCredentialDto",
		Field("email", As(IsEmail()), As(IsNotEmpty())),
		Field("password", As(IsString()), As(IsNotEmpty())),
	)
)

func TestMessagesAreTheReferences(t *testing.T) {
	for _, tt := range []struct {
		name  string
		class *Class
		body  string
		want  any // Problems, Thrown, or nil
	}{
		{"every field of the wrong type", createAlbum, `{"albumName":1,"description":1,"assetIds":1,"albumUsers":1}`, Problems{
			"albumName must be a string", "description must be a string", "albumUsers must be an array",
			"each value in nested property albumUsers must be either object or array",
			"each value in assetIds must be a UUID", "assetIds must be an array",
		}},
		{"null is a value where Optional is not nullable", createAlbum, `{"albumName":null,"description":null,"assetIds":null,"albumUsers":null}`, Problems{
			"albumName must be a string", "description must be a string", "albumUsers must be an array",
			"each value in nested property albumUsers must be either object or array",
			"each value in assetIds must be a UUID", "assetIds must be an array",
		}},
		{"nested objects, prefixed with their path", createAlbum, `{"albumName":"x","albumUsers":["x", {"userId":1}]}`, Problems{
			"albumUsers.each value in nested property albumUsers must be either object or array",
			"albumUsers.1.userId must be a UUID", "albumUsers.1.userId must be a string",
			"albumUsers.1.role must be one of the following values: editor, viewer",
		}},
		{"absent optional members are not judged", createAlbum, `{"albumName":""}`, nil},
		{"the link's every field", createLink, `{"type":1,"albumId":1,"assetIds":1,"description":1,"password":1,"allowUpload":1,"allowDownload":1,"showMetadata":1}`, Problems{
			"type must be one of the following values: ALBUM, INDIVIDUAL", "each value in assetIds must be a UUID", "assetIds must be an array",
			"albumId must be a UUID", "albumId must be a string", "description must be a string", "password must be a string",
			"allowUpload must be a boolean value", "allowDownload must be a boolean value", "showMetadata must be a boolean value",
		}},
		{"a date that is none hides the rest", createLink, `{"type":1,"expiresAt":"tomorrow"}`, Thrown("expiresAt must be a date string")},
		{"a nullable date may be null", createLink, `{"type":"ALBUM","expiresAt":null}`, nil},
		{"booleans as strings", createLink, `{"type":"ALBUM","allowUpload":"false"}`, nil},
		{"an empty login", login, `{}`, Problems{"email should not be empty", "email must be an email", "password should not be empty", "password must be a string"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.class.Decode([]byte(tt.body))
			if tt.want == nil {
				assert.NoError(t, err)
				return
			}
			assert.Equal(t, tt.want, err)
		})
	}
}

func TestBodiesAreTransformed(t *testing.T) {
	b, err := createLink.Decode([]byte(`{"type":"ALBUM","allowUpload":"false","expiresAt":"2026-11-27T10:00:00Z","unknown":1}`))
	require.NoError(t, err)
	v, ok := b.Bool("allowUpload")
	assert.True(t, ok)
	assert.False(t, v, `"false" is false`)
	at, ok := b.Time("expiresAt")
	assert.True(t, ok)
	assert.Equal(t, time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC), at.UTC())
	assert.False(t, b.Has("unknown"), "unknown members are dropped")

	b, err = createAlbum.Decode([]byte(`{"albumName":"x","albumUsers":[{"userId":"00000000-0000-4000-8000-000000000001","role":"viewer","x":1}]}`))
	require.NoError(t, err)
	users := b.Objects("albumUsers")
	require.Len(t, users, 1)
	role, _ := users[0].String("role")
	assert.Equal(t, "viewer", role)
	assert.False(t, users[0].Has("x"), "unknown members of nested objects are dropped")
}

func TestMalformedBodiesAreSyntaxErrors(t *testing.T) {
	for _, body := range []string{`{"albumName":`, `{"albumName":"x"}}`, `{x}`} {
		_, err := createAlbum.Decode([]byte(body))
		require.Error(t, err, body)
		assert.ErrorAs(t, err, new(SyntaxError), body)
	}
	for _, body := range []string{``, `[1]`} {
		_, err := createAlbum.Decode([]byte(body))
		assert.Equal(t, Problems{"albumName must be a string"}, err, "%q has no members", body)
	}
	for body, want := range map[string]string{`   `: "Unexpected end of JSON input", `"x"`: `Unexpected token '"', ""x"" is not valid JSON`} {
		_, err := createAlbum.Decode([]byte(body))
		assert.Equal(t, SyntaxError(want), err, "%q: the body parser's strict check", body)
	}
}

func TestMockRulesAddNothingTheReferenceWouldNotSay(t *testing.T) {
	c := NewClass("Bounded",
		Field("name", As(IsString())).Limit(3),
		Field("quota", Optional(), As(IsNumber())).Whole(),
		Field("shown", As(IsNotEmpty())).Boolean(),
	)
	_, err := c.Decode([]byte(`{"name":1,"quota":"x"}`))
	assert.Equal(t, Problems{"name must be a string", "quota must be a number conforming to the specified constraints", "shown should not be empty"}, err, "the mock's rules judge only their own type, and a value given")
	_, err = c.Decode([]byte(`{"name":"long","quota":1.5,"shown":"yes"}`))
	assert.Equal(t, Problems{"name must be shorter than or equal to 3 characters", "quota must be an integer number", "shown must be a boolean value"}, err)
}

// FuzzDecode: any body is decoded or refused, never a panic, and a refusal
// says something.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"albumName":1,"albumUsers":["x",{"userId":1},[[]]]}`, `{"type":"ALBUM","expiresAt":"2026-01-01"}`, `{`, `[]`, `null`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		for _, c := range []*Class{createAlbum, createLink, login} {
			b, err := c.Decode([]byte(body))
			if err == nil {
				require.NotNil(t, b)
				continue
			}
			if p, ok := err.(Problems); ok {
				require.NotEmpty(t, p)
				for _, m := range p {
					require.NotEmpty(t, m)
				}
			}
		}
	})
}

// TestTypeNumberReadsAsJavaScriptDoes: @Type(() => Number) on a query's
// text, as Number() reads it.
func TestTypeNumberReadsAsJavaScriptDoes(t *testing.T) {
	for in, want := range map[string]string{
		"": "0", "  ": "0", "7": "7", " 7 ": "7", "-3": "-3", "+2": "2", "1.5": "1.5", ".5": "0.5", "5.": "5",
		"1e3": "1000", "0x10": "16", "0b101": "5", "0o17": "15", "Infinity": "+Inf", "-Infinity": "-Inf",
		"abc": "NaN", "1_000": "NaN", "0x": "NaN", "1e": "NaN", "infinity": "NaN", "NaN": "NaN", "1,5": "NaN", "--1": "NaN",
	} {
		assert.Equal(t, json.Number(want), jsNumber(in), "%q", in)
	}
	assert.Equal(t, []any{json.Number("1"), json.Number("NaN")}, jsNumber([]any{"1", "x"}))
	assert.Equal(t, json.Number("1"), jsNumber(true))
	assert.Nil(t, jsNumber(nil))

	c := NewClass("MemoryLaneDto", Field("day", As(IsInt()), TypeNumber(), As(Max(31)), As(Min(1))))
	for in, want := range map[string]Problems{
		"x":   {"day must not be less than 1", "day must not be greater than 31", "day must be an integer number"},
		"1.5": {"day must be an integer number"},
		"32":  {"day must not be greater than 31"},
		"":    {"day must not be less than 1"},
	} {
		_, err := c.Validate(map[string]any{"day": in})
		assert.Equal(t, want, err, "%q", in)
	}
	b, err := c.Validate(map[string]any{"day": " 12 "})
	require.NoError(t, err)
	n, ok := b.Int64("day")
	assert.True(t, ok)
	assert.EqualValues(t, 12, n)
}
