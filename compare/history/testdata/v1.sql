-- A history database of schema version 1, as the first version of package
-- history wrote it: two comparisons against base aaaa…, one A/A comparison
-- of bbbb…, each with results for one benchmark. TestMigrateFromV1 loads it
-- and opens it with the current package.
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO schema_version (version) VALUES (1);
CREATE TABLE comparisons (
	id INTEGER PRIMARY KEY,
	module TEXT NOT NULL,
	base_spec TEXT NOT NULL, base_commit TEXT NOT NULL, base_time INTEGER NOT NULL,
	base_dirty INTEGER NOT NULL, base_subject TEXT NOT NULL,
	head_spec TEXT NOT NULL, head_commit TEXT NOT NULL, head_time INTEGER NOT NULL,
	head_dirty INTEGER NOT NULL, head_subject TEXT NOT NULL,
	goos TEXT NOT NULL, goarch TEXT NOT NULL, cpu TEXT NOT NULL, go_version TEXT NOT NULL,
	settings TEXT NOT NULL,
	wall_ns INTEGER NOT NULL,
	recorded INTEGER NOT NULL
);
CREATE TABLE results (
	comparison_id INTEGER NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
	bench_id TEXT NOT NULL, package TEXT NOT NULL, name TEXT NOT NULL, unit TEXT NOT NULL,
	status TEXT NOT NULL, side TEXT NOT NULL, error TEXT NOT NULL,
	change REAL, ci_low REAL, ci_high REAL, base_median REAL, head_median REAL,
	base_n INTEGER, head_n INTEGER,
	verdict TEXT NOT NULL, p_value REAL, trials INTEGER NOT NULL,
	PRIMARY KEY (comparison_id, bench_id, unit)
);
INSERT INTO comparisons VALUES (1, 'example.com/m',
	'main', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 1700000000000000000, 0, 'base',
	'HEAD', 'cccccccccccccccccccccccccccccccccccccccc', 1700000100000000000, 0, 'first change',
	'linux', 'amd64', 'Test CPU', 'go1.26.8',
	'{"trials":3,"runs":3,"count":5,"benchtime":"1s","seed":1,"threshold":0.01,"confidence":0.99,"resamples":10000}',
	60000000000, 1700000200000000000);
INSERT INTO comparisons VALUES (2, 'example.com/m',
	'main', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 1700000000000000000, 0, 'base',
	'HEAD', 'dddddddddddddddddddddddddddddddddddddddd', 1700000300000000000, 0, 'second change',
	'linux', 'amd64', 'Test CPU', 'go1.26.8',
	'{"trials":3,"runs":3,"count":5,"benchtime":"1s","seed":2,"threshold":0.01,"confidence":0.99,"resamples":10000}',
	60000000000, 1700000400000000000);
INSERT INTO comparisons VALUES (3, 'example.com/m',
	'HEAD', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 1700000000000000000, 0, 'a/a',
	'HEAD', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', 1700000000000000000, 0, 'a/a',
	'linux', 'amd64', 'Test CPU', 'go1.26.8',
	'{"trials":3,"runs":3,"count":5,"benchtime":"1s","seed":3,"threshold":0.01,"confidence":0.99,"resamples":10000}',
	60000000000, 1700000500000000000);
INSERT INTO results VALUES (1, 'example.com/m.BenchmarkA', 'example.com/m', 'BenchmarkA', 'sec/op',
	'compared', '', '', 0.02, 0.01, 0.03, 100, 102, 45, 45, 'definite-regression', 0.001, 3);
INSERT INTO results VALUES (2, 'example.com/m.BenchmarkA', 'example.com/m', 'BenchmarkA', 'sec/op',
	'compared', '', '', 0.10, 0.08, 0.12, 100, 110, 45, 45, 'definite-regression', 0.001, 3);
INSERT INTO results VALUES (3, 'example.com/m.BenchmarkA', 'example.com/m', 'BenchmarkA', 'sec/op',
	'compared', '', '', 0.001, -0.02, 0.02, 100, 100.1, 45, 45, 'unchanged', 0.9, 3);
