package callgraph_test

import (
	"encoding/json"
	"fmt"

	"github.com/mbopt/mbopt/callgraph"
)

// An Impact as compare's JSON carries it: a benchmark whose covered
// functions hold 34% of the application's CPU time (41% by flat time).
func ExampleImpact() {
	im := callgraph.Impact{Attributed: 0.34, Flat: 0.41, Functions: []string{"example.com/tsdb/query.(*Engine).Run"}}
	b, err := json.Marshal(im)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output:
	// {"attributed":0.34,"flat":0.41,"functions":["example.com/tsdb/query.(*Engine).Run"]}
}
