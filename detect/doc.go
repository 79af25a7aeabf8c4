// Package detect finds performance changes in a benchmark's history: the
// series of its relative changes against one fixed baseline revision, one
// point per commit, each with a confidence interval (package benchstats).
//
// The detectors are those of Grambow et al., "Using Microbenchmark Suites
// to Detect Application Performance Changes" (IEEE TCC 2022), section 3.4
// ("Jump and Trend Detection", Figure 4), which extend the fixed-value,
// jump and trend thresholds of Grambow's dissertation (2024), chapter
// 4.2.3, with a dynamic threshold. A point's value v is its change against
// the baseline (0.05 is 5% slower than the baseline for a time), so the
// metric of the dissertation's formulas is m = 1 + v.
//
// # Dynamic threshold
//
// Point i is judged against threshold
//
//	t_i = max(Floor, Factor × mean(w_{i−Widths}, …, w_{i−1}))
//
// where w_j is point j's confidence interval width, its instability (the
// study: Factor 0.75, Widths 3, Floor 1%). Only earlier points count: a
// noisier commit raises the threshold for the commits after it (Figure 4's
// caption). While fewer than Widths earlier points exist, each missing
// width counts as InitialThreshold/Factor, so the first point is judged
// against InitialThreshold (floored) and the threshold moves from it to
// the benchmark's own instability over the first Widths points. A poor
// initial threshold therefore shows in the first few points: the study's
// first alarms were false ones while the threshold adapted.
//
// # Jump
//
// A jump at point i (i ≥ 1) is the change between consecutive commits,
// m_i/m_{i−1} − 1 (dissertation formula 4.2), whose magnitude exceeds
// t_i. It is definite when the confidence intervals of points i−1 and i
// do not overlap, potential otherwise.
//
// # Trend
//
// A trend at point i is the change of the current value against the mean
// of the previous window, m_i·b / Σ m_{i−k} − 1 over the b = min(Window,
// available) earlier points of the window (formula 4.3), whose magnitude
// exceeds t_i. The window holds at least 2 points, since with one it would
// repeat the jump. A trend is definite when point i's interval overlaps
// none of the window's intervals, potential otherwise. The window restarts
// after a definite jump: the points before the jump do not count for the
// trends after it, since the new level is explained by the jump.
//
// # Fixed values
//
// With [Options.Fixed] set, a point whose value v lies outside the bounds
// (Lower < v < Upper, both exclusive, as in formula 4.1) is a fixed-value
// detection: definite when its whole interval lies outside, potential
// when only the value does.
//
// # Order
//
// [Detect] returns the detections by point index, and at one index in the
// order fixed, jump, trend.
package detect
