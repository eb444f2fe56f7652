-- Recorded metrics over time, oldest first, for one subject and/or one study: one row per run and metric.
-- A row recorded before metrics carried their kind is a rate (successes of trials), read as descriptive.
-- Parameters: subject (or NULL), again; metric (or NULL), again; mode (or NULL), again;
-- study name or study id (or NULL), again, again.
SELECT r.recorded_at, r.run_path, m.metric, coalesce(m.kind, 'descriptive') AS kind, m.mode, m.subject,
       coalesce(m.context, '') AS context, coalesce(m.value, m.successes / m.trials) AS value, m.low, m.high,
       coalesce(m.n, m.trials) AS n, m.mde, m.successes, m.trials,
       r.study_name, r.study_id, r.card_set, r.strategies, r.code_version
FROM metrics AS m
JOIN runs AS r USING (run_id)
WHERE (?::VARCHAR IS NULL OR m.subject = ?)
  AND (?::VARCHAR IS NULL OR m.metric = ?)
  AND (?::VARCHAR IS NULL OR m.mode = ?)
  AND (?::VARCHAR IS NULL OR r.study_name = ? OR r.study_id = ?)
ORDER BY r.study_id NULLS FIRST, m.subject, m.metric, m.mode, context, r.recorded_at, r.run_id
