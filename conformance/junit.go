package conformance

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"
)

// The JUnit XML report, as CI systems read it: one testsuite per feature,
// one testcase per scenario. It keeps to the schema of Jenkins' JUnit
// reports (testdata/junit-10.xsd, which a test validates against): the
// feature's file is an attribute of its testsuite, a scenario's line is
// told in its failure's text, and the skipped count is the testsuites'
// own, not their parent's, which the schema does not allow there.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	File     string      `xml:"file,attr,omitempty"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes res as JUnit XML: a scenario fails when any of its
// steps failed, whichever it was, and a skipped scenario says why.
func WriteJUnit(w io.Writer, res Result) error {
	doc := junitSuites{Name: "mediaspec conformance", Time: seconds(res.Duration)}
	index := map[string]int{}
	var suiteTimes []time.Duration // summed here, formatted once: no rounding adds up
	for _, s := range res.Scenarios {
		i, ok := index[s.FeatureFile]
		if !ok {
			i = len(doc.Suites)
			index[s.FeatureFile] = i
			doc.Suites = append(doc.Suites, junitSuite{Name: s.Feature, File: s.FeatureFile})
			suiteTimes = append(suiteTimes, 0)
		}
		suite := &doc.Suites[i]
		c := junitCase{Name: s.Name, ClassName: s.Feature, Time: seconds(s.Duration)}
		suite.Tests++
		doc.Tests++
		switch s.Status {
		case Failed:
			c.Failure = &junitFailure{Message: headline(s.Failure), Type: "failed", Body: failureBody(s)}
			suite.Failures++
			doc.Failures++
		case Skipped, NotRun:
			c.Skipped = &junitSkipped{Message: s.SkipReason}
			suite.Skipped++
		}
		suiteTimes[i] += s.Duration
		suite.Cases = append(suite.Cases, c)
	}
	for i := range doc.Suites {
		doc.Suites[i].Time = seconds(suiteTimes[i])
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// maxHeadline bounds a failure's message, which CI shows as the title of
// an annotation.
const maxHeadline = 300

// headline is the first line of a failure that says what is wrong: its
// first line, and when that only announces what follows (it ends with a
// colon, as "... which breaks the OpenAPI document:" does), the first
// line after it too.
func headline(failure string) string {
	var lines []string
	for l := range strings.Lines(failure) {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return ""
	}
	h := lines[0]
	if strings.HasSuffix(h, ":") && len(lines) > 1 {
		h += " " + lines[1]
	}
	if r := []rune(h); len(r) > maxHeadline {
		h = string(r[:maxHeadline-1]) + "…"
	}
	return h
}

// failureBody tells the whole story: where the scenario is, then its
// steps with their outcomes, the failed one with its error in full.
func failureBody(s ScenarioResult) string {
	var b []byte
	b = fmt.Appendf(b, "%s:%d\n", s.FeatureFile, s.Line)
	for _, st := range s.Steps {
		b = fmt.Appendf(b, "%-9s %s%s\n", st.Status, st.Keyword, st.Text)
		if st.Error != "" {
			b = fmt.Appendf(b, "          %s\n", indent(st.Error, "          "))
		}
	}
	return string(b)
}
