-- seats: the seats of the games, seen from each seat: its form, deck, strategy and result, one row per kind of
-- seat-game with their number n (the games grouped first: a few hundred rows for a million games); and cells, a
-- number for each (form, deck, strategy) cell so that per-card counts can group by small integers.
-- Reads: games. The matchup and baseline queries read seats (sums weighted by n); the per-card, position and
-- flare queries cells.
-- A tie (winner -1) is a game the seat did not win: won = 0, tied = 1.
CREATE OR REPLACE TABLE cells AS
SELECT mode, deck, strategy, (row_number() OVER (ORDER BY mode, deck, strategy))::USMALLINT AS cell
FROM (
    SELECT mode, deck_0 AS deck, strategy_0 AS strategy FROM games
    UNION  -- distinct rows
    SELECT mode, deck_1 AS deck, strategy_1 AS strategy FROM games
);

CREATE OR REPLACE TABLE seats AS
WITH kinds AS (
    SELECT run, mode, deck_0, strategy_0, deck_1, strategy_1, winner, count(*) AS n
    FROM games
    GROUP BY ALL
)
SELECT run, 0::TINYINT AS seat, mode,
       deck_0 AS deck, strategy_0 AS strategy, deck_1 AS opp_deck, strategy_1 AS opp_strategy,
       (winner = 0)::INTEGER AS won, (winner = -1)::INTEGER AS tied, n
FROM kinds
UNION ALL
SELECT run, 1::TINYINT AS seat, mode,
       deck_1 AS deck, strategy_1 AS strategy, deck_0 AS opp_deck, strategy_0 AS opp_strategy,
       (winner = 1)::INTEGER AS won, (winner = -1)::INTEGER AS tied, n
FROM kinds;
