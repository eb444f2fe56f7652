-- The history database: one row per recorded run, its summary metrics in long form.
CREATE TABLE IF NOT EXISTS runs (
    run_id VARCHAR PRIMARY KEY,
    run_path VARCHAR NOT NULL,
    recorded_at TIMESTAMP NOT NULL
);
-- What the run was (added after the first version: older databases gain the columns, their rows NULL).
ALTER TABLE runs ADD COLUMN IF NOT EXISTS study_name VARCHAR;
ALTER TABLE runs ADD COLUMN IF NOT EXISTS study_id VARCHAR;        -- equal for runs of one study
ALTER TABLE runs ADD COLUMN IF NOT EXISTS card_set VARCHAR;        -- the card-set fingerprint
ALTER TABLE runs ADD COLUMN IF NOT EXISTS strategies VARCHAR;      -- label=strategy pairs
ALTER TABLE runs ADD COLUMN IF NOT EXISTS code_version VARCHAR;    -- git commit or package version
CREATE TABLE IF NOT EXISTS metrics (
    run_id VARCHAR NOT NULL,
    metric VARCHAR NOT NULL,
    mode VARCHAR NOT NULL,
    subject VARCHAR NOT NULL,
    successes BIGINT NOT NULL,
    trials BIGINT NOT NULL
);
