-- One subject's recorded metrics over time, oldest first.
-- Parameters: subject, metric (or NULL for all), metric again, mode (or NULL for all), mode again.
SELECT r.recorded_at, r.run_path, m.metric, m.mode, m.successes, m.trials
FROM metrics AS m
JOIN runs AS r USING (run_id)
WHERE m.subject = ?
  AND (?::VARCHAR IS NULL OR m.metric = ?)
  AND (?::VARCHAR IS NULL OR m.mode = ?)
ORDER BY m.metric, m.mode, r.recorded_at, r.run_id
