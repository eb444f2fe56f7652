-- The history database: one row per recorded run, its summary metrics in long form.
-- Grain of metrics: one row per run, metric, form, subject and context (the cell it was measured in).
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
    successes BIGINT,  -- a rate's counts; NULL for an estimate (a difference, a slope) or a mean
    trials BIGINT
);
-- Every metric as an estimate (added with the randomized, ablation and controlled metrics: an older
-- database's rows are rates of successes out of trials, of kind NULL, read as descriptive).
ALTER TABLE metrics ALTER COLUMN successes DROP NOT NULL;
ALTER TABLE metrics ALTER COLUMN trials DROP NOT NULL;
ALTER TABLE metrics ADD COLUMN IF NOT EXISTS kind VARCHAR;      -- randomized, ablation, controlled, descriptive
ALTER TABLE metrics ADD COLUMN IF NOT EXISTS context VARCHAR;   -- deck and player, opposing deck, arm; '' if none
ALTER TABLE metrics ADD COLUMN IF NOT EXISTS value DOUBLE;
ALTER TABLE metrics ADD COLUMN IF NOT EXISTS low DOUBLE;        -- the 95% interval; NULL for a mean
ALTER TABLE metrics ADD COLUMN IF NOT EXISTS high DOUBLE;
ALTER TABLE metrics ADD COLUMN IF NOT EXISTS n BIGINT;          -- the sample behind the value
ALTER TABLE metrics ADD COLUMN IF NOT EXISTS mde DOUBLE;        -- detectable at 80% power, where tested
