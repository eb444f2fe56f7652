-- How the games of each player against itself end (a strength level's mirror games): per form and player,
-- the share ended by the end score, by a personal deck running out and by the turn limit; the share of
-- players (seat-games) finishing at or above the end score (9 in High Form, 18 in Deathmatch); ties; mean
-- turns. Reads: games.
SELECT
    mode,
    strategy_0 AS strategy,
    count(*) AS games,
    avg(CASE WHEN end_reason = 'score' THEN 1.0 ELSE 0.0 END) AS by_score,
    avg(CASE WHEN end_reason = 'deck' THEN 1.0 ELSE 0.0 END) AS by_deck,
    avg(CASE WHEN end_reason = 'turn-limit' THEN 1.0 ELSE 0.0 END) AS by_turn_limit,
    avg(
        (CASE WHEN score_0 >= threshold THEN 1.0 ELSE 0.0 END)
        + (CASE WHEN score_1 >= threshold THEN 1.0 ELSE 0.0 END)
    ) / 2 AS reach_threshold,
    avg(CASE WHEN winner = -1 THEN 1.0 ELSE 0.0 END) AS ties,
    avg(turns) AS mean_turns
FROM (SELECT *, CASE WHEN mode = 'high-form' THEN 9 ELSE 18 END AS threshold FROM games)
WHERE strategy_0 = strategy_1
GROUP BY mode, strategy_0
ORDER BY mode, strategy_0;
