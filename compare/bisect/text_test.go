package bisect_test

import (
	"strings"
	"testing"

	"github.com/mbopt/mbopt/compare/bisect"
)

func TestWriteText(t *testing.T) {
	h := func(c byte) string { return strings.Repeat(string(c), 40) }
	tests := []struct {
		name string
		r    bisect.Result
		want string
	}{
		{
			name: "found",
			r: bisect.Result{Bench: "m.BenchmarkWork", Good: h('a'), Bad: h('f'), FirstBad: h('d'), LastGood: h('c'),
				Steps: []bisect.Step{
					{Commit: h('f'), Subject: "comment", Change: 0.5, Low: 0.4, High: 0.6, Trials: 3, Unit: "sec/op", Decision: bisect.Bad},
					{Commit: h('b'), Trials: 3, Decision: bisect.Skip, Reason: "does not build: x.go:1: undefined: y"},
					{Commit: h('d'), Subject: "twice the work", Change: 0.48, Low: 0.3, High: 0.7, Trials: 3, Unit: "sec/op", Decision: bisect.Bad},
					{Commit: h('c'), Subject: "comment", Change: 0.01, Low: -0.1, High: 0.1, Trials: 3, Unit: "sec/op", Decision: bisect.Good},
				},
				Skipped: []bisect.Skipped{{Commit: h('b'), Reason: "does not build: x.go:1: undefined: y"}}},
			want: `bisect m.BenchmarkWork: good aaaaaaaaaaaa, bad ffffffffffff; wall time per operation (--metric instructions counts instructions under Valgrind, steadier on a shared machine)
  ffffffffffff  bad        +50.0% [+40.0%, +60.0%] 3 trials  comment
  bbbbbbbbbbbb  skip     does not build: x.go:1: undefined: y
  dddddddddddd  bad        +48.0% [+30.0%, +70.0%] 3 trials  twice the work
  cccccccccccc  good        +1.0% [-10.0%, +10.0%] 3 trials  comment
skipped bbbbbbbbbbbb: does not build: x.go:1: undefined: y
first bad commit: dddddddddddddddddddddddddddddddddddddddd (last good cccccccccccccccccccccccccccccccccccccccc)
`,
		},
		{
			name: "several changes",
			r: bisect.Result{Bench: "m.BenchmarkWork", Good: h('a'), Bad: h('f'),
				Changes: []bisect.Change{
					{From: h('a'), To: h('c'), Change: -0.018, Low: -0.023, High: -0.013},
					{From: h('d'), To: h('e'), Change: -0.04, Low: -0.05, High: -0.03},
				}},
			want: `bisect m.BenchmarkWork: good aaaaaaaaaaaa, bad ffffffffffff; wall time per operation (--metric instructions counts instructions under Valgrind, steadier on a shared machine)
not located: the steps show 2 changes, not one:
  aaaaaaaaaaaa..cccccccccccc     -1.8% [-2.3%, -1.3%]
  dddddddddddd..eeeeeeeeeeee     -4.0% [-5.0%, -3.0%]
bisect each range on its own, or raise --threshold above the smaller changes to locate the larger
`,
		},
		{
			name: "not located",
			r:    bisect.Result{Bench: "m.BenchmarkWork", Good: h('a'), Bad: h('f')},
			want: "bisect m.BenchmarkWork: good aaaaaaaaaaaa, bad ffffffffffff; wall time per operation (--metric instructions counts instructions under Valgrind, steadier on a shared machine)\nnot located\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := tt.r.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}
