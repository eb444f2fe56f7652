-- The card sets each run's games were played with. Grain: one row per run. Estimand: none; a check that
-- pooled runs played the same cards. Ablation arms are left out (their changed copy has its own fingerprint).
-- Reads: pooled_games (run, card_set, variant), every game of every run, all forms.
SELECT run, list(DISTINCT card_set ORDER BY card_set) AS card_sets
FROM pooled_games
WHERE variant = ''
GROUP BY run
ORDER BY run;
