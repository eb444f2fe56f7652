-- The seats and cells tables of seats.sql for the melee views (the report's melee connection): one row per
-- seat of every melee, seen from that seat, with its form ("melee-3", "melee-4") in place of the mode.
-- Reads: games and seat_results. A shared first place (winner -1) is a game the seat did not win.
CREATE OR REPLACE TEMP TABLE melee_seat_rows AS
WITH melee_seats AS (
    SELECT r.run, r.game_id, r.seat, 'melee-' || g.players AS mode, r.deck, r.strategy,
           NULL::VARCHAR AS opp_deck, NULL::VARCHAR AS opp_strategy,
           (g.winner = r.seat)::INTEGER AS won, (g.winner = -1 AND r.place = 1)::INTEGER AS tied,
           r.position, r.place, r.score, r.improvised, g.players
    FROM seat_results r
    JOIN games g USING (run, game_id)
)
SELECT * FROM melee_seats;

CREATE OR REPLACE TABLE cells AS
SELECT mode, deck, strategy, (row_number() OVER (ORDER BY mode, deck, strategy))::USMALLINT AS cell
FROM (SELECT DISTINCT mode, deck, strategy FROM melee_seat_rows);

CREATE OR REPLACE TABLE seats AS
SELECT *, 1 AS n FROM melee_seat_rows;  -- n: one seat-game a row (deck_baseline.sql weights by it)
