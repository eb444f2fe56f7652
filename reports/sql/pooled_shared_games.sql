-- Games that two runs given to one report both hold. Grain: one row per pair of runs (run_a < run_b) that
-- share any game: the same seed, study cell and ablation arm, the games of one study on one base seed (a
-- game's seed is a function of the base seed and its id). Estimand: none; a check. `games` is how many such
-- games, `first_game` the smallest game id among them in run_a.
-- Reads: pooled_games (run, game_id, seed, cell, variant), every game of every run, all forms.
SELECT a.run AS run_a, b.run AS run_b, count(*) AS games, min(a.game_id) AS first_game
FROM pooled_games a
JOIN pooled_games b USING (seed, cell, variant)
WHERE a.run < b.run
GROUP BY a.run, b.run
ORDER BY a.run, b.run;
