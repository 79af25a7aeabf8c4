package flagbind

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/mbopt/mbopt"
	"github.com/mbopt/mbopt/internal/enum"
)

// names maps the library's settings — the mbopt.Field paths of the
// configurations the commands fill, such as compare.FieldSettingsTrials —
// to the flags (or arguments) that set them, for [Word]. [Bind] and [Name]
// fill it as the commands define their flags, so it names exactly the
// flags that exist; a path no flag sets (collect's and compare's Dir, the
// current directory) is named as Go names it, or not at all before a
// message.
var names = struct {
	sync.Mutex
	m map[mbopt.Field]string
}{m: map[mbopt.Field]string{}}

// Name records that name (a flag such as "--trials", or an argument such
// as "PATTERN") sets each of fields. A setting has one name across the
// commands: naming it twice differently panics.
func Name(name string, fields ...mbopt.Field) {
	names.Lock()
	defer names.Unlock()
	for _, f := range fields {
		if old, ok := names.m[f]; ok && old != name {
			panic(fmt.Sprintf("flagbind: the setting %s is set by both %s and %s", string(f), old, name))
		}
		names.m[f] = name
	}
}

// Flag names a library setting by the flag (or argument) that sets it, or
// as Go does when none does (ok is false).
func Flag(f mbopt.Field) (name string, ok bool) {
	names.Lock()
	defer names.Unlock()
	if name, ok = names.m[f]; !ok {
		name = f.String()
	}
	return name, ok
}

// Bind defines the flag --name on fs with pflag's own flag of T (a []string
// is repeatable, one value per use), storing its value at p with the
// default def, and records that it sets the library settings fields (see
// [Name]). It returns the flag, whose DefValue a caller sets to the default
// the library takes for a zero value, for the usage to show.
func Bind[T string | int | bool | float64 | time.Duration | []string](fs *pflag.FlagSet, p *T, name string, def T, usage string, fields ...mbopt.Field) *pflag.Flag {
	return BindP(fs, p, name, "", def, usage, fields...)
}

// BindP is [Bind] with a one-letter shorthand, which then names the
// settings ("-o").
func BindP[T string | int | bool | float64 | time.Duration | []string](fs *pflag.FlagSet, p *T, name, shorthand string, def T, usage string, fields ...mbopt.Field) *pflag.Flag {
	switch p := any(p).(type) {
	case *string:
		fs.StringVarP(p, name, shorthand, any(def).(string), usage)
	case *int:
		fs.IntVarP(p, name, shorthand, any(def).(int), usage)
	case *bool:
		fs.BoolVarP(p, name, shorthand, any(def).(bool), usage)
	case *float64:
		fs.Float64VarP(p, name, shorthand, any(def).(float64), usage)
	case *time.Duration:
		fs.DurationVarP(p, name, shorthand, any(def).(time.Duration), usage)
	case *[]string:
		fs.StringArrayVarP(p, name, shorthand, any(def).([]string), usage)
	}
	if shorthand != "" {
		Name("-"+shorthand, fields...)
	} else {
		Name("--"+name, fields...)
	}
	return fs.Lookup(name)
}

// The words of a [Positive] flag's refusal most flags share.
const (
	AtLeastOne     = "%s %v: it must be at least 1"
	MustBePositive = "%s must be positive, not %v"
)

// Positive is [Bind] for a flag whose value must be positive: the library
// takes a zero setting for its default, so a zero (or negative) value given
// on the command line is refused as it is parsed, as refuse words it (a
// format of the flag, such as "--trials", and the value). NaN and
// infinities are [CheckFinite]'s to refuse, as for every float flag.
func Positive[T int | float64 | time.Duration](fs *pflag.FlagSet, p *T, name string, def T, usage, refuse string, fields ...mbopt.Field) *pflag.Flag {
	f := Bind(fs, p, name, def, usage, fields...)
	f.Value = positive[T]{f.Value, p, "--" + name, refuse}
	return f
}

// positive is a [Positive] flag's value: pflag's, refusing what is not
// positive.
type positive[T int | float64 | time.Duration] struct {
	pflag.Value
	p            *T
	flag, refuse string
}

// Set parses s as pflag's flag does, and refuses a value that is not
// positive with an input error, which [FlagError] passes on as it is.
func (v positive[T]) Set(s string) error {
	if err := v.Value.Set(s); err != nil {
		return err
	}
	if x := float64(*v.p); x <= 0 && !math.IsInf(x, -1) {
		return mbopt.Errorf(v.refuse, v.flag, *v.p)
	}
	return nil
}

// Optional is [Bind] for a setting whose absence means something no value
// says (a nil CommitURL is GitHub's link, an empty one none): the flag
// points *p at its value when given, and leaves it nil when not. def is
// the default the usage shows.
func Optional[T string | float64](fs *pflag.FlagSet, p **T, name, def, usage string, fields ...mbopt.Field) *pflag.Flag {
	v := new(T)
	f := Bind(fs, v, name, *v, usage, fields...)
	f.Value, f.DefValue = optional[T]{f.Value, p, v}, def
	return f
}

// optional is an [Optional] flag's value: pflag's, pointed at when set.
type optional[T any] struct {
	pflag.Value
	p **T
	v *T
}

// Set parses s as pflag's flag does, and points the setting at the value.
func (o optional[T]) Set(s string) error {
	*o.p = o.v
	return o.Value.Set(s)
}

// Parsed is [Bind] for a setting of a type of its own that parse reads
// (such as compare.ParseFailOn or detect.ParseBounds): the flag stores
// parse's result at p as the command line is parsed, so a bad value is
// refused, naming the flag, before anything runs. An unset flag leaves *p
// as it is; def is the default the usage shows.
func Parsed[T any](fs *pflag.FlagSet, p *T, name, def, usage string, parse func(string) (T, error), fields ...mbopt.Field) *pflag.Flag {
	fs.Var(&parsed[T]{p: p, parse: parse, flag: "--" + name, text: def}, name, usage)
	Name("--"+name, fields...)
	f := fs.Lookup(name)
	f.DefValue = def
	return f
}

// Choice is [Parsed] for a string that must be one of valid, such as
// --format.
func Choice(fs *pflag.FlagSet, p *string, name, def, usage string, valid ...string) *pflag.Flag {
	*p = def
	return Parsed(fs, p, name, def, usage, func(s string) (string, error) {
		return s, enum.Check("invalid value", s, valid...)
	})
}

// NonEmpty is a parse function for [Parsed] that refuses an empty value
// (a directory flag given ""), suggesting example instead.
func NonEmpty(flag, example string) func(string) (string, error) {
	return func(s string) (string, error) {
		if s == "" {
			return "", mbopt.Errorf("--%s \"\": give a directory, such as --%s %s", flag, flag, example)
		}
		return s, nil
	}
}

// parsed is a [Parsed] flag's value.
type parsed[T any] struct {
	p          *T
	parse      func(string) (T, error)
	flag, text string
}

// Set parses s, refusing a bad value with an input error that names the
// flag (an input error of the library's names its setting, which [Word]
// words as the flag).
func (v *parsed[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		if ie := (*mbopt.Error)(nil); errors.As(err, &ie) {
			return err
		}
		return mbopt.Errorf("%s: %v", v.flag, err)
	}
	*v.p, v.text = x, s
	return nil
}

// String returns the value as given, or the default shown.
func (v *parsed[T]) String() string { return v.text }

// Type names the flag's value in the usage.
func (v *parsed[T]) Type() string { return "string" }
