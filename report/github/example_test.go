package github_test

import (
	"fmt"
	"os"

	"github.com/mbopt/mbopt/report/github"
)

// Annotations are escaped as GitHub requires: a percent sign, colon or
// comma in a title, a percent sign or newline in a message.
func ExampleWriteAnnotations() {
	err := github.WriteAnnotations(os.Stdout, []github.Annotation{
		{Level: "error", Title: "+8.1% sec/op: storage.BenchmarkAdd", Message: "definite regression\nsee the summary"},
		{Level: "notice", Title: "-3.0% sec/op: query.BenchmarkSelect", Message: "potential improvement"},
	})
	fmt.Println(err)
	// Output:
	// ::error title=+8.1%25 sec/op%3A storage.BenchmarkAdd::definite regression%0Asee the summary
	// ::notice title=-3.0%25 sec/op%3A query.BenchmarkSelect::potential improvement
	// <nil>
}
