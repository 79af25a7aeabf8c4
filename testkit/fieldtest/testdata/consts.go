package consts

import "github.com/mbopt/mbopt"

// The constants fieldConsts finds: those of type mbopt.Field.
const (
	FieldDir         mbopt.Field = "Dir"
	FieldSettingsDir mbopt.Field = "Settings.Dir"
	notAField                    = "Other"
	FieldComputed    mbopt.Field = "Compu" + "ted"
)

// Ignored is a string, not a Field.
const Ignored string = "Dir"
