package mbopt

import "slices"

// Chosen reports whether a caller chose the setting f rather than leaving
// it to its default, the rule of the configurations' Chosen hooks (such as
// collect.Config.Chosen): chosen, a front end's record of what it was
// given (for a command line, the flags given), says so; when chosen is nil,
// a setting was chosen when it is not zero (zero says whether it is).
// Where zero means "the default", a chosen zero is refused rather than
// taken for the default, and a setting not chosen may take a default that
// depends on other settings.
func Chosen(chosen func(Field) bool, f Field, zero bool) bool {
	if chosen == nil {
		return !zero
	}
	return chosen(f)
}

// ChosenFields returns a record of the settings chosen, for a Chosen hook:
// it reports the fields listed as chosen and every other as left to its
// default.
func ChosenFields(fields ...Field) func(Field) bool {
	return func(f Field) bool { return slices.Contains(fields, f) }
}
