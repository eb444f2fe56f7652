-- A changed being's shuffled position in each run (run 0 the baseline, run 1 the candidate).
-- Grain: one row per unchanged game and seat whose being deck holds the card: the position the setup
-- shuffle gave the card (0 is drawn first; 0-2 the opening hand) and the seat's result (1 win, 0.5 tie,
-- 0 loss).
-- Estimand (reports/regression/gates.py): per form, the change between the runs of the card's position
-- effect, the linear fit of its holder's result on the card's position read as the fitted result at the
-- top of the deck minus at its bottom. The seed alone decides the position, before any play, so the fit is
-- a randomized dose-response; runs with equal seeds give each seat the same position in both.
-- Parameter: the card id. Reads deck_order, games (the unchanged duels of both runs).
SELECT o.run, g.mode, o.game_id, o.seat, CAST(o.position AS INTEGER) AS position,
       CAST(CASE WHEN g.winner = o.seat THEN 1.0 WHEN g.winner = -1 THEN 0.5 ELSE 0.0 END AS DOUBLE) AS result
FROM deck_order AS o
JOIN games AS g USING (run, game_id)
WHERE o.card_id = $card
ORDER BY o.run, g.mode, o.game_id, o.seat
