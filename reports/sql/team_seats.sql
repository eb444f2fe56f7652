-- The seats and cells tables of seats.sql for the team views (the report's team connection): one row per
-- seat of every team game (2 against 2), seen from that seat, with its form ("team-high-form",
-- "team-deathmatch") in place of the mode. A seat wins when its team wins (games.winner is the team, 0 for
-- seats 0 and 2, 1 for seats 1 and 3); a tie (winner -1) is a game no seat won. Which team took the first
-- turn is team_order.sql's (from games). Reads: games and seat_results.
CREATE OR REPLACE TEMP TABLE team_seat_rows AS
SELECT r.run, r.game_id, r.seat, r.team, 'team-' || g.mode AS mode, r.deck, r.strategy,
       NULL::VARCHAR AS opp_deck, NULL::VARCHAR AS opp_strategy,
       (g.winner = r.team)::INTEGER AS won, (g.winner = -1)::INTEGER AS tied,
       r.position, r.place, r.score
FROM seat_results r
JOIN games g USING (run, game_id);

CREATE OR REPLACE TABLE cells AS
SELECT mode, deck, strategy, (row_number() OVER (ORDER BY mode, deck, strategy))::USMALLINT AS cell
FROM (SELECT DISTINCT mode, deck, strategy FROM team_seat_rows);

CREATE OR REPLACE TABLE seats AS
SELECT *, 1 AS n FROM team_seat_rows;  -- n: one seat-game a row (deck_baseline.sql weights by it)

-- One row per team of every team game: its two members' decks and players (unordered: "a+b" in name order),
-- the other team's, its result, score and the times its members passed control.
CREATE OR REPLACE TABLE team_sides AS
WITH passes AS (
    SELECT run, game_id, seat % 2 AS team, count(*) AS passes
    FROM pass_control
    GROUP BY run, game_id, seat % 2
),
members AS (
    SELECT run, game_id, team, any_value(mode) AS mode,
           list_sort(list(deck)) AS decks, list_sort(list(strategy)) AS players,
           max(won) AS won, max(tied) AS tied, max(score) AS score
    FROM team_seat_rows
    GROUP BY run, game_id, team
)
SELECT m.run, m.game_id, m.team, m.mode,
       array_to_string(m.decks, '+') AS decks, array_to_string(m.players, '+') AS players,
       array_to_string(o.decks, '+') AS opp_decks, array_to_string(o.players, '+') AS opp_players,
       m.won, o.won AS lost, m.tied, m.score,
       coalesce(p.passes, 0) AS passes
FROM members m
JOIN members o ON o.run = m.run AND o.game_id = m.game_id AND o.team <> m.team
LEFT JOIN passes p ON p.run = m.run AND p.game_id = m.game_id AND p.team = m.team;
