package bisect

import "testing"

// The reference step locates a change only when its interval clears the
// threshold: intervals measured between identical binaries with three
// trials of the cpu metric (+0.9%..+3.9%, +1.8%..+4.0%) excluded zero.
func TestBeyond(t *testing.T) {
	for _, tc := range []struct {
		low, high, threshold float64
		want                 bool
	}{
		{0.0089, 0.0387, 0, false},    // identical code, the default 1%
		{0.0177, 0.0404, 0.05, false}, // identical code, a 5% threshold
		{0.0177, 0.0404, 0.01, true},  // … which 1% does not hide
		{0.59, 0.70, 0, true},         // the doubled helper
		{-0.70, -0.59, 0.05, true},    // an improvement
		{-0.02, 0.03, 0, false},       // contains zero
	} {
		if got := beyond(Step{Low: tc.low, High: tc.high}, tc.threshold); got != tc.want {
			t.Errorf("beyond([%+.4f, %+.4f], %v) = %v, want %v", tc.low, tc.high, tc.threshold, got, tc.want)
		}
	}
}
