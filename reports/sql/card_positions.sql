-- Dose-response per being: per form, deck, strategy, card and the card's position in its seat's deck as
-- the setup shuffle left it (0 is drawn first; 0-2 is the opening hand), the seat-games and wins. The
-- position is decided by the game's seed before any play, so comparing positions is a randomized
-- comparison. Reads: deck_order, seats.
SELECT s.mode, s.deck, s.strategy, o.card_id, o.position,
       count(*) AS games,
       sum(s.won) AS wins
FROM deck_order o
JOIN seats s USING (run, game_id, seat)
GROUP BY s.mode, s.deck, s.strategy, o.card_id, o.position
ORDER BY s.mode, s.deck, s.strategy, o.card_id, o.position;
