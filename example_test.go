package mbopt_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mbopt/mbopt"
)

// A library names the settings in its message; a command line words it with
// its flags.
func ExampleError_Text() {
	err := mbopt.Errorf("%s must be a positive count (0: no limit), not %d", mbopt.Field("Select.Top"), -1)
	fmt.Println(err)
	var ie *mbopt.Error
	if errors.As(err, &ie) {
		fmt.Println(ie.Text(func(f mbopt.Field) string { return "--" + strings.ToLower(strings.TrimPrefix(string(f), "Select.")) }))
	}
	fmt.Println(errors.Is(err, mbopt.ErrInput))
	// Output:
	// Config.Select.Top must be a positive count (0: no limit), not -1
	// --top must be a positive count (0: no limit), not -1
	// true
}

// An error about one field whose message does not name it: a front end puts
// its name for the field first.
func ExampleField_Errorf() {
	err := mbopt.Field("Out").Errorf("output directory %s is a file; choose a directory", "a.txt")
	var ie *mbopt.Error
	errors.As(err, &ie)
	fmt.Println(string(ie.Field), "|", err)
	// Output:
	// Out | output directory a.txt is a file; choose a directory
}

// CheckOutput refuses to write a result over one of its inputs, or where
// no file can be written.
func ExampleCheckOutput() {
	fmt.Println(mbopt.CheckOutput("Output", "report.txt", "app.pprof", "suite.json"))
	fmt.Println(mbopt.CheckOutput("Output", "suite.json", "app.pprof", "suite.json"))
	fmt.Println(mbopt.CheckOutput("Output", "no-such-dir/report.txt"))
	fmt.Println(mbopt.CheckOutput("Output", "."))
	// Output:
	// <nil>
	// Config.Output suite.json is the input suite.json: writing the result there would overwrite it; choose another file
	// Config.Output no-such-dir/report.txt: the directory no-such-dir does not exist; create it or choose another output file
	// Config.Output .: is a directory; Config.Output names the file to write
}
