package store

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/mediaspec/mediaspec/mockserver/model"
)

// The server's settings (GET and PUT /api/system-config).

// Limits on the settings' texts: the theme's CSS may be long, every other
// text is a name, a URL or a template.
const (
	MaxCustomCSSChars    = 64 << 10
	MaxConfigTextChars   = MaxDescriptionChars
	maxConfigListEntries = 64
)

// SystemConfig is the server's settings as they are now.
func (v *View) SystemConfig() model.SystemConfig {
	if v.st.config == nil {
		return model.DefaultSystemConfig()
	}
	return v.st.config.Clone()
}

// SetSystemConfig stores the server's settings; the defaults are stored
// as none, so that a dataset carries only settings an admin changed.
func (tx *Tx) SetSystemConfig(c model.SystemConfig) error {
	c = c.Clone()
	if err := tx.setConfig(&c); err != nil {
		return Fail(Invalid, "%s", err.Error())
	}
	return nil
}

// setConfig checks c and stores it (nil: the defaults).
func (tx *Tx) setConfig(c *model.SystemConfig) error {
	if c != nil {
		if err := checkConfig(reflect.ValueOf(*c), ""); err != nil {
			return err
		}
		if reflect.DeepEqual(*c, model.DefaultSystemConfig()) {
			c = nil
		}
	}
	st := tx.st
	before := st.config
	st.config = c
	tx.did(0, func() { st.config = before })
	return nil
}

// checkConfig checks every text of the settings against its limit, every
// list against its length, and every number for a finite one.
func checkConfig(v reflect.Value, path string) error {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			if err := checkConfig(v.Field(i), strings.TrimPrefix(path+"."+name, ".")); err != nil {
				return err
			}
		}
	case reflect.String:
		limit := MaxConfigTextChars
		if path == "theme.customCss" {
			limit = MaxCustomCSSChars
		}
		if n := utf8.RuneCountInString(v.String()); n > limit {
			return fmt.Errorf("%s is %d long, over the limit of %d", path, n, limit)
		}
	case reflect.Slice:
		if v.Len() > maxConfigListEntries {
			return fmt.Errorf("%s has %d entries, over the limit of %d", path, v.Len(), maxConfigListEntries)
		}
		for i := range v.Len() {
			if err := checkConfig(v.Index(i), fmt.Sprintf("%s.%d", path, i)); err != nil {
				return err
			}
		}
	case reflect.Float64:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s is not a finite number", path)
		}
	}
	return nil
}
