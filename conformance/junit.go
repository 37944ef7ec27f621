package conformance

import (
	"encoding/xml"
	"fmt"
	"io"
	"time"
)

// The JUnit XML report, as CI systems read it: one testsuite per feature,
// one testcase per scenario.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
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
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
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
			doc.Suites = append(doc.Suites, junitSuite{Name: s.Feature})
			suiteTimes = append(suiteTimes, 0)
		}
		suite := &doc.Suites[i]
		c := junitCase{Name: s.Name, ClassName: s.Feature, File: s.FeatureFile, Line: s.Line, Time: seconds(s.Duration)}
		suite.Tests++
		doc.Tests++
		switch s.Status {
		case Failed:
			c.Failure = &junitFailure{Message: firstLine(s.Failure), Type: "failed", Body: failureBody(s)}
			suite.Failures++
			doc.Failures++
		case Skipped:
			c.Skipped = &junitSkipped{Message: s.SkipReason}
			suite.Skipped++
			doc.Skipped++
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

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}

// failureBody lists the scenario's steps with their outcomes, and the error.
func failureBody(s ScenarioResult) string {
	var b []byte
	for _, st := range s.Steps {
		b = fmt.Appendf(b, "%-9s %s%s\n", st.Status, st.Keyword, st.Text)
		if st.Error != "" {
			b = fmt.Appendf(b, "          %s\n", indent(st.Error, "          "))
		}
	}
	return string(b)
}
