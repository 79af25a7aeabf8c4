package mbopt

import (
	"errors"
	"io/fs"
	"testing"
)

func TestError(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		msg    string
		fields []Field
		is     error
	}{
		{"named field", Errorf("%s is %d", Field("Top"), 3), "Config.Top is 3", []Field{"Top"}, nil},
		{"struct", &Error{Struct: "detect.Options", Format: "%s is %v", Args: []any{Field("Factor"), 0}}, "detect.Options.Factor is 0", []Field{"Factor"}, nil},
		{"wrapped", Errorf("reading %s: %w", "x", fs.ErrNotExist), "reading x: file does not exist", nil, fs.ErrNotExist},
		{"field", Field("Out").Errorf("no output directory"), "no output directory", nil, nil},
		{"wrap", Wrap(fs.ErrPermission), "permission denied", nil, fs.ErrPermission},
		{"nested", Errorf("selecting: %w", Errorf("%s is 0", Field("Top"))), "selecting: Config.Top is 0", nil, nil},
	}
	for _, tt := range tests {
		var ie *Error
		if !errors.As(tt.err, &ie) {
			t.Fatalf("%s: %T is not an *Error", tt.name, tt.err)
		}
		if got := tt.err.Error(); got != tt.msg {
			t.Errorf("%s: Error() = %q, want %q", tt.name, got, tt.msg)
		}
		if got := ie.Fields(); len(got) != len(tt.fields) || (len(got) > 0 && got[0] != tt.fields[0]) {
			t.Errorf("%s: Fields() = %v, want %v", tt.name, got, tt.fields)
		}
		if !errors.Is(tt.err, ErrInput) {
			t.Errorf("%s: does not match ErrInput", tt.name)
		}
		if tt.is != nil && !errors.Is(tt.err, tt.is) {
			t.Errorf("%s: does not match %v", tt.name, tt.is)
		}
	}
	nested := Errorf("selecting: %w", Errorf("%s is 0", Field("Top"))).(*Error)
	if got := nested.Text(func(f Field) string { return "--top" }); got != "selecting: --top is 0" {
		t.Errorf("nested Text = %q", got)
	}
	if Wrap(nil) != nil {
		t.Error("Wrap(nil) is not nil")
	}
}
