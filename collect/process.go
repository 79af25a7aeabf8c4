package collect

import "github.com/mbopt/mbopt/internal/testbin"

// A procResult is how one test binary process ended; see package
// internal/testbin, which runs them for collect and compare alike.
type procResult = testbin.Result

// runProcess runs a test binary; see [testbin.Run].
var runProcess = testbin.Run

// buildError returns go test -c output without its "# package" headers;
// see [testbin.BuildError].
var buildError = testbin.BuildError
