-- The history database: one row per recorded run, its summary metrics in long form.
CREATE TABLE IF NOT EXISTS runs (
    run_id VARCHAR PRIMARY KEY,
    run_path VARCHAR NOT NULL,
    recorded_at TIMESTAMP NOT NULL
);
CREATE TABLE IF NOT EXISTS metrics (
    run_id VARCHAR NOT NULL,
    metric VARCHAR NOT NULL,
    mode VARCHAR NOT NULL,
    subject VARCHAR NOT NULL,
    successes BIGINT NOT NULL,
    trials BIGINT NOT NULL
);
