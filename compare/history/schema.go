package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/mbopt/mbopt/compare"
)

// This file holds the database schema: its version, and the migrations
// that bring an older history to SchemaVersion.

// SchemaVersion is the version of the database schema this package
// writes; [Open] migrates older databases to it.
const SchemaVersion = 6

// newerSchema is the error for a database of schema version v >
// SchemaVersion.
func newerSchema(v int) error {
	return fmt.Errorf("schema version %d is newer than this mbopt's %d: update mbopt, or use another --history file", v, SchemaVersion)
}

// migrations[v] moves a database from version v to v+1; migrations[0]
// creates version 1.
var migrations = []func(ctx context.Context, tx *sql.Tx) error{
	execAll(schemaV1...),
	migrateV2,
	execAll(schemaV3...),
	migrateV4,
	execAll(schemaV5...),
	execAll(schemaV6...),
}

// schemaV3 adds each revision's first-parent depth (compare.Revision.Depth),
// which orders a series by ancestry; 0, unknown, for the comparisons
// stored before.
var schemaV3 = []string{
	`ALTER TABLE comparisons ADD COLUMN base_depth INTEGER NOT NULL DEFAULT 0`,
	`ALTER TABLE comparisons ADD COLUMN head_depth INTEGER NOT NULL DEFAULT 0`,
}

// migrateV4 adds what a point keeps of its comparison (the threshold its
// verdict was taken against, backfilled from the stored settings; the
// benchmark's reference impact, unknown before) and the bridge flag of
// [Store.AddBridge], and recomputes the settings hashes, which no longer
// depend on --benchmem.
func migrateV4(ctx context.Context, tx *sql.Tx) error {
	if err := execAll(
		`ALTER TABLE results ADD COLUMN threshold REAL`,
		`ALTER TABLE results ADD COLUMN impact_attributed REAL`,
		`ALTER TABLE results ADD COLUMN impact_flat REAL`,
		`ALTER TABLE comparisons ADD COLUMN bridge INTEGER NOT NULL DEFAULT 0`,
	)(ctx, tx); err != nil {
		return err
	}
	settings, err := storedSettings(ctx, tx)
	if err != nil {
		return err
	}
	for id, st := range settings {
		if _, err := tx.ExecContext(ctx, `UPDATE comparisons SET settings_hash = ? WHERE id = ?`, SettingsHash(st), id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE results SET threshold = ? WHERE comparison_id = ? AND status = ?`, st.Threshold, id, string(compare.Compared)); err != nil {
			return err
		}
	}
	return nil
}

// storedSettings reads the settings of every stored comparison.
func storedSettings(ctx context.Context, tx *sql.Tx) (map[int64]compare.Settings, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, settings FROM comparisons`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]compare.Settings{}
	for rows.Next() {
		var id int64
		var js string
		if err := rows.Scan(&id, &js); err != nil {
			return nil, err
		}
		var st compare.Settings
		if err := json.Unmarshal([]byte(js), &st); err != nil {
			return nil, fmt.Errorf("comparison %d: its settings are not the JSON of compare.Settings: %w", id, err)
		}
		out[id] = st
	}
	return out, rows.Err()
}

// schemaV1 is the first schema: comparisons and their results.
var schemaV1 = []string{
	`CREATE TABLE schema_version (version INTEGER NOT NULL)`,
	`INSERT INTO schema_version (version) VALUES (0)`,
	`CREATE TABLE comparisons (
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
	)`,
	`CREATE TABLE results (
		comparison_id INTEGER NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
		bench_id TEXT NOT NULL, package TEXT NOT NULL, name TEXT NOT NULL, unit TEXT NOT NULL,
		status TEXT NOT NULL, side TEXT NOT NULL, error TEXT NOT NULL,
		change REAL, ci_low REAL, ci_high REAL, base_median REAL, head_median REAL,
		base_n INTEGER, head_n INTEGER,
		verdict TEXT NOT NULL, p_value REAL, trials INTEGER NOT NULL,
		PRIMARY KEY (comparison_id, bench_id, unit)
	)`,
}

// migrateV2 adds the settings hash and the A/A flag, backfills both, and
// adds the indexes of the series and calibration queries.
func migrateV2(ctx context.Context, tx *sql.Tx) error {
	if err := execAll(
		`ALTER TABLE comparisons ADD COLUMN settings_hash TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE comparisons ADD COLUMN aa INTEGER NOT NULL DEFAULT 0`,
		`UPDATE comparisons SET aa = (base_commit = head_commit AND base_dirty = head_dirty)`,
		`CREATE INDEX results_bench ON results (bench_id, unit)`,
		`CREATE INDEX comparisons_base ON comparisons (base_commit, aa)`,
	)(ctx, tx); err != nil {
		return err
	}
	settings, err := storedSettings(ctx, tx)
	if err != nil {
		return err
	}
	hashes := map[int64]string{}
	for id, st := range settings {
		hashes[id] = SettingsHash(st)
	}
	for id, h := range hashes {
		if _, err := tx.ExecContext(ctx, `UPDATE comparisons SET settings_hash = ? WHERE id = ?`, h, id); err != nil {
			return err
		}
	}
	return nil
}

func execAll(stmts ...string) func(context.Context, *sql.Tx) error {
	return func(ctx context.Context, tx *sql.Tx) error {
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s); err != nil {
				return fmt.Errorf("%.40s…: %w", s, err)
			}
		}
		return nil
	}
}

// migrate brings the database to SchemaVersion: a database found at
// that version is left alone; any other is created or migrated in one
// immediate transaction (see migrateTx), so that no other connection
// sees a schema half made, and a migration killed halfway leaves the
// version it started from.
func (s *Store) migrate(ctx context.Context) error {
	// The quick look, outside a transaction, only spares the write lock
	// when there is nothing to do: what it sees of a database another
	// process is creating (or a look that fails) is decided again under
	// the lock, after the creator has committed.
	if v, err := retryBusy(ctx, func() (int, error) { return s.version(ctx) }); err == nil && v == SchemaVersion {
		return nil
	}
	_, err := retryBusy(ctx, func() (int, error) { return 0, s.migrateTx(ctx) })
	if isPlaceError(err) {
		return unwritable(s.path, err)
	}
	return err
}

// migrateTx takes the write lock (an immediate transaction, waiting for
// another writer, such as a process creating the same database), reads
// the version under it and runs every migration from there to
// SchemaVersion in that one transaction.
func (s *Store) migrateTx(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil) // immediate: holds the write lock
	if err != nil {
		return err
	}
	defer tx.Rollback()
	v, err := versionIn(ctx, tx, s.path)
	if err != nil {
		return err
	}
	if v > SchemaVersion {
		return newerSchema(v)
	}
	if v == SchemaVersion {
		return nil // another process migrated while this one waited
	}
	for from := v; from < SchemaVersion; from++ {
		if err := migrations[from](ctx, tx); err != nil {
			return fmt.Errorf("migrating the schema from version %d to %d: %w", from, from+1, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, SchemaVersion); err != nil {
		return err
	}
	return tx.Commit()
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// version returns the schema version, 0 for an empty database.
func (s *Store) version(ctx context.Context) (int, error) { return versionIn(ctx, s.db, s.path) }

// versionIn returns the schema version q sees, 0 for an empty database.
// Outside a transaction it reads the schema in one statement, so that it
// sees one state of a database another connection is creating.
func versionIn(ctx context.Context, q querier, path string) (int, error) {
	var n, tables int
	if err := q.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'),
		(SELECT count(*) FROM sqlite_master)`).Scan(&n, &tables); err != nil {
		return 0, damaged(path, err)
	}
	if n == 0 {
		if tables > 0 {
			return 0, fmt.Errorf("%w: an SQLite database with other tables; give another --history file", ErrNotHistory)
		}
		return 0, nil
	}
	var v int
	if err := q.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("reading the schema version: %w", err)
	}
	return v, nil
}
