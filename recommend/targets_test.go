package recommend

import "testing"

func TestParseFunc(t *testing.T) {
	tests := []struct {
		name                  string
		named, short, recv    string
		closure, call, export bool
	}{
		{"example.com/m/store.Open", "example.com/m/store.Open", "Open", "", false, true, true},
		{"example.com/m/store.open", "example.com/m/store.open", "open", "", false, true, false},
		{"example.com/m/store.(*DB).Put", "example.com/m/store.(*DB).Put", "Put", "DB", false, true, true},
		{"example.com/m/store.(*db).Put", "example.com/m/store.(*db).Put", "Put", "db", false, true, false},
		{"example.com/m/store.DB.Len", "example.com/m/store.DB.Len", "Len", "DB", false, true, true},
		{"example.com/m/store.(*DB).Put.func1", "example.com/m/store.(*DB).Put", "Put", "DB", true, true, true},
		{"example.com/m/store.Open.func1.2", "example.com/m/store.Open", "Open", "", true, true, true},
		{"example.com/m/store.Open.gowrap1", "example.com/m/store.Open", "Open", "", true, true, true},
		{"example.com/m/store.Open.func2.deferwrap1", "example.com/m/store.Open", "Open", "", true, true, true},
		{"example.com/m/store.Open-range1", "example.com/m/store.Open", "Open", "", true, true, true},
		{"example.com/m/store.Open.func1-range2", "example.com/m/store.Open", "Open", "", true, true, true},
		{"example.com/m/store.(*DB).Put-fm", "example.com/m/store.(*DB).Put", "Put", "DB", true, true, true},
		{"example.com/m/store.Map[...].func1", "example.com/m/store.Map[...]", "Map[...]", "", true, true, true},
		{"example.com/m/store.(*Tree[...]).Insert", "example.com/m/store.(*Tree[...]).Insert", "Insert", "Tree[...]", false, true, true},
		{"example.com/m/store.Tree[...].len", "example.com/m/store.Tree[...].len", "len", "Tree[...]", false, true, false},
		{"example.com/m/store.init", "example.com/m/store.init", "init", "", false, false, false},
		{"example.com/m/store.init.0", "example.com/m/store.init", "init", "", true, false, false},
		{"example.com/m/store.init.func1", "example.com/m/store.init", "init", "", true, false, false},
		{"main.main.func1", "main.main", "main", "", true, false, false},
		{"main.run", "main.run", "run", "", false, false, false},
		{"gopkg.in/yaml%2ev3.Unmarshal", "gopkg.in/yaml%2ev3.Unmarshal", "Unmarshal", "", false, true, true},
	}
	for _, tt := range tests {
		f, ok := parseFunc(tt.name)
		if !ok {
			t.Errorf("parseFunc(%q) failed", tt.name)
			continue
		}
		if f.named != tt.named || f.short != tt.short || f.recv != tt.recv || f.closure != tt.closure {
			t.Errorf("parseFunc(%q) = named %q short %q recv %q closure %v, want %q %q %q %v", tt.name, f.named, f.short, f.recv, f.closure, tt.named, tt.short, tt.recv, tt.closure)
		}
		if got := f.callable(); got != tt.call {
			t.Errorf("parseFunc(%q).callable() = %v, want %v", tt.name, got, tt.call)
		}
		if got := f.exported(); got != tt.export {
			t.Errorf("parseFunc(%q).exported() = %v, want %v", tt.name, got, tt.export)
		}
	}
	for _, name := range []string{"nodot", "example.com/m/store.F.notaclosure.x"} {
		if f, ok := parseFunc(name); ok {
			t.Errorf("parseFunc(%q) = %+v, want failure", name, f)
		}
	}
	if f, ok := parseFunc("example.com/m/store.glob..func1"); ok && f.callable() {
		t.Errorf("parseFunc(glob..func1) is callable")
	}
}

func TestParseTargets(t *testing.T) {
	for _, tt := range []Targets{AnyFunction, Callable} {
		got, err := ParseTargets(tt.String())
		if err != nil || got != tt {
			t.Errorf("ParseTargets(%q) = %v, %v; want %v", tt.String(), got, err, tt)
		}
	}
	if _, err := ParseTargets("all"); err == nil {
		t.Error(`ParseTargets("all") succeeded`)
	}
}
