package cli

import "github.com/mbopt/mbopt"

// FieldOutput names -o, every command's output file, in the errors of
// mbopt.CheckOutput and mbopt.WriteOutput, as the comparison half's
// configurations name theirs (compare/flow's CompareConfig.Output).
const FieldOutput mbopt.Field = "Output"
