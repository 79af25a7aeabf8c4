// Package doccheck holds a test that keeps the module's API documented:
// every package must have a package comment, and every exported name and
// every exported struct field of every non-test Go file in the module a
// doc comment, so that go doc of each package reads as a manual and the
// JSON types of package report document their schema.
//
// The rules the test applies, after golint and go doc:
//
//   - functions, and methods of exported types, need a doc comment;
//   - a type needs its own doc comment (a parenthesized type group's
//     comment does not count for its members);
//   - a constant or variable needs a doc comment, a comment at the end of
//     its line, or a comment on its parenthesized group (go doc shows the
//     group with its comment);
//   - an exported field of an exported struct type, and an exported method
//     of an exported interface, needs a doc comment or a comment at the end
//     of its line; names declared together (GOOS, GOARCH string) share one;
//     the fields of struct types nested in such a field count as well.
//
// Test files, testdata directories, hidden directories and nested modules
// (the example module under testdata) are not checked.
//
// A second test requires every library package (neither internal nor a
// command) to have at least one runnable Example, a func Example… in a
// _test.go file with an "Output:" comment, so that go test checks what the
// documentation shows.
//
// A third test keeps the code readable in pieces (issue 32): no
// production Go file (of the same files) over 600 lines, and no function
// over 100 lines from its func keyword to its closing brace. The command's
// manual, cmd/mbopt/doc.go, may be longer; the packages still being
// restructured are listed in size_test.go until they are done.
package doccheck
