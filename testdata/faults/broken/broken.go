// Package broken does not compile: the type error below is deliberate.
package broken

// Value is not an int.
var Value int = "not an int"
