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
// # E-divisive means
//
// Jump and trend look at one point and the few before it. E-divisive
// means (Matteson and James, "A Nonparametric Approach for Multiple
// Change Point Analysis of Multivariate Data", JASA 2014), the method of
// MongoDB's change-point service (Daly et al., ICPE 2020) and Apache
// Otava, looks at the whole series at once: [ChangePoints] splits it where
// the points before and after differ most in distribution, tests the split
// by permutation, and repeats within the parts until a split is not
// significant. For a segment x_1..x_n split at τ into X = x_1..x_τ and
// Y = x_{τ+1}..x_n (m = τ and k = n − τ points),
//
//	Ê = 2/(m·k) Σ|X_i − Y_j|^α − Σ_{i<l}|X_i − X_l|^α / C(m,2) − Σ_{j<l}|Y_j − Y_l|^α / C(k,2)
//	Q̂ = m·k/(m + k) · Ê
//
// (α = 1: the energy distance, which grows with a change of the mean or of
// the spread). Each segment's split is the τ of largest Q̂ with both parts
// at least MinSize long (ties: the smaller τ), the segment's end standing
// for the paper's κ as in MongoDB's implementation; the candidate is the
// split of largest Q̂ over all current segments. Its p-value is (1 + the
// number of permutations whose largest Q̂ reaches it) / (1 + Permutations),
// each permutation shuffling the points within every current segment;
// the candidate is a change point when the p-value is at most
// Significance, and the search stops at the first one that is not. The
// permutations come from a PCG generator seeded with [EDivisiveOptions].Seed,
// so a series always gives the same change points.
//
// As a detector ([Options].Detectors holding [EDivisive]), each change
// point is a detection at its first point whose change is the ratio of the
// segment means around it, (1 + after)/(1 + before) − 1, judged against
// the point's dynamic threshold: definite when the change exceeds it,
// potential when the permutation test found a change smaller than the
// benchmark's instability. A change point needs MinSize commits on each
// side, so E-divisive sees a change only MinSize commits after it landed,
// and, unlike jump and trend, never the first commits after the baseline.
// Which detector to use when: docs/detectors.md.
//
// # Order
//
// [Detect] returns the detections by point index, and at one index in the
// order fixed, jump, trend, edivisive.
package detect
