-- seats: one row per seat of every game, seen from that seat: its form, deck, strategy and result; and cells, a
-- number for each (form, deck, strategy) cell so that per-card counts can group by small integers.
-- Reads: games. The matchup, baseline and flare queries read seats; the per-card and position queries cells.
-- A tie (winner -1) is a game the seat did not win: won = 0, tied = 1.
CREATE OR REPLACE TABLE cells AS
SELECT mode, deck, strategy, (row_number() OVER (ORDER BY mode, deck, strategy))::USMALLINT AS cell
FROM (
    SELECT DISTINCT mode, deck_0 AS deck, strategy_0 AS strategy FROM games
    UNION
    SELECT DISTINCT mode, deck_1 AS deck, strategy_1 AS strategy FROM games
);

CREATE OR REPLACE TABLE seats AS
SELECT run, game_id, 0::TINYINT AS seat, mode,
       deck_0 AS deck, strategy_0 AS strategy, deck_1 AS opp_deck, strategy_1 AS opp_strategy,
       first_player = 0 AS first, (winner = 0)::INTEGER AS won, (winner = -1)::INTEGER AS tied
FROM games
UNION ALL
SELECT run, game_id, 1::TINYINT AS seat, mode,
       deck_1 AS deck, strategy_1 AS strategy, deck_0 AS opp_deck, strategy_0 AS opp_strategy,
       first_player = 1 AS first, (winner = 1)::INTEGER AS won, (winner = -1)::INTEGER AS tied
FROM games;
