package github_test

import (
	"bytes"
	"testing"

	"github.com/mbopt/mbopt/report/github"
	"github.com/mbopt/mbopt/testkit/hostile"
)

// TestAnnotationEscapes: whatever a title or message holds (a percent
// sign, a carriage return, a newline, "::", a terminal escape), each
// annotation is one workflow command line and decodes back to its text
// (issue 25: keep a test with %, \r, \n and ::).
func TestAnnotationEscapes(t *testing.T) {
	as := []github.Annotation{
		{Level: "error", Title: "100% a::b,c\r\nd", Message: "x%0Ay\r\n::error::injected\n::add-mask::s\x1b[31m"},
		{Level: "warning", Title: "::warning::t", Message: "%25 stays %25"},
	}
	var b bytes.Buffer
	if err := github.WriteAnnotations(&b, as); err != nil {
		t.Fatal(err)
	}
	hostile.CheckWorkflowCommands(t, b.Bytes(), len(as))
	want := "::error title=100%25 a%3A%3Ab%2Cc%0D%0Ad::x%250Ay%0D%0A::error::injected%0A::add-mask::s\\x1b[31m\n" +
		"::warning title=%3A%3Awarning%3A%3At::%2525 stays %2525\n"
	if b.String() != want {
		t.Errorf("wrote\n%q\nwant\n%q", b.String(), want)
	}
}
