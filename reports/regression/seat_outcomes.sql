-- One row per seat of every game of both runs (run 0 the baseline, run 1 the candidate): the seat's
-- deck, its opponent's deck, and its result as a number (1 win, 0.5 tie, 0 loss).
SELECT g.run, g.game_id, g.mode, s.seat,
       CASE WHEN s.seat = 0 THEN g.deck_0 ELSE g.deck_1 END AS deck,
       CASE WHEN s.seat = 0 THEN g.deck_1 ELSE g.deck_0 END AS opponent,
       CAST(CASE WHEN g.winner = s.seat THEN 1.0 WHEN g.winner = -1 THEN 0.5 ELSE 0.0 END AS DOUBLE) AS result
FROM games AS g
CROSS JOIN (VALUES (0), (1)) AS s(seat)
ORDER BY g.run, g.game_id, s.seat
