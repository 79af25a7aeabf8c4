package verdict_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mbopt/mbopt/report/verdict"
)

// TestImpactUnit: when the analysis read an instruction profile of the
// application (--allow-non-cpu; the impacts' unit "instructions"), every
// line about the impacts speaks of the application's instructions, never
// of its CPU time ("which covers 34.0% of the application's CPU time"
// before): the headline in text and Markdown, the annotations and the
// legends; the JSON's impact objects name the unit. A CPU profile's
// impacts keep "CPU time" and have no unit.
func TestImpactUnit(t *testing.T) {
	for _, tc := range []struct{ unit, noun string }{
		{"instructions", "instructions"},
		{"", "CPU time"},
	} {
		t.Run(tc.noun, func(t *testing.T) {
			r := compareFixtures()["full"]
			for i := range r.Results {
				if im := r.Results[i].Impact; im != nil {
					im.Unit = tc.unit
				}
			}
			out := map[string]string{}
			for _, format := range verdict.Formats {
				var b bytes.Buffer
				_, err := verdict.Write(&b, r, format)
				require.NoError(t, err, format)
				out[format] = b.String()
			}
			covers := "which covers 34.0% of the application's " + tc.noun + " (41.2% flat)"
			for _, format := range []string{"text", "markdown"} {
				assert.Contains(t, out[format], covers, format)
			}
			// An annotation's message escapes "%" as "%25".
			assert.Contains(t, out["github"], "which covers 34.0%25 of the application's "+tc.noun+" (41.2%25 flat)")
			assert.Contains(t, out["text"], "\nimpact: the share of the application's "+tc.noun+" attributed to the functions a benchmark covers; flat: the share\n")
			assert.Contains(t, out["markdown"], "*impact*: the share of the application's "+tc.noun+" attributed to the functions a benchmark covers;")
			if tc.unit != "" {
				for format, s := range out {
					assert.NotContains(t, s, "application's CPU", format)
				}
			}
			var doc struct {
				Results []struct {
					Impact map[string]any `json:"impact"`
				} `json:"results"`
			}
			require.NoError(t, json.Unmarshal([]byte(out["json"]), &doc))
			impacts := 0
			for _, res := range doc.Results {
				if res.Impact == nil {
					continue
				}
				impacts++
				unit, ok := res.Impact["unit"]
				assert.Equal(t, tc.unit != "", ok, "the JSON names a unit only when it is not CPU time")
				if ok {
					assert.Equal(t, tc.unit, unit)
				}
			}
			assert.Equal(t, 5, impacts)
		})
	}
}
