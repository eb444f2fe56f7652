-- Dose-response per being: per form, deck, strategy, card and the card's position in its seat's deck as
-- the setup shuffle left it (0 is drawn first; 0-2 is the opening hand), the seat-games and wins. The
-- position is decided by the game's seed before any play, so comparing positions is a randomized
-- comparison. Reads: deck_order, seats and cells (seats.sql). Grouped by the small cell number first (36
-- rows a game: 36 million for a million games), names joined after.
WITH counts AS (
    SELECT s.cell, o.card_id, o.position,
           count(*) AS games,
           sum(s.won) AS wins
    FROM deck_order o
    JOIN seats s USING (run, game_id, seat)
    GROUP BY s.cell, o.card_id, o.position
)
SELECT c.mode, c.deck, c.strategy, counts.card_id, counts.position, counts.games, counts.wins
FROM counts
JOIN cells c USING (cell)
ORDER BY c.mode, c.deck, c.strategy, counts.card_id, counts.position;
