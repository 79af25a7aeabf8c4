//go:build !(linux || darwin)

package history

// placeProblem says why a database in dir cannot be written; here the
// directory is not examined, and it returns "".
func placeProblem(dir string) string { return "" }
