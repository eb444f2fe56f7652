-- Per flare, form, deck and strategy, with the seat-game as the unit: invocations, the seat-games it was
-- invoked in, in how many of them only its upper half, only its lower half, or both halves were used, and
-- comebacks: seat-games in which it was invoked while behind on score (behind_by, the invoker's score
-- minus the opponent's, below 0) and how many of those the invoker won; the mean of behind_by over the
-- invocations. Reads: seat_cards (each seat-game's invocations of a flare, summed when the shard was written by
-- the seat's kind, card and result: docs/dataset.md), cells (seats.sql, melee_seats.sql or team_seats.sql, which
-- name a seat's form as this CASE does).
SELECT cells.mode, cells.deck, cells.strategy, c.card_id,
       sum(c.invocations) AS invocations,
       sum(c.invoked) AS games,
       sum(c.upper_only) AS upper_only,
       sum(c.lower_only) AS lower_only,
       sum(c.both_halves) AS both_halves,
       sum(c.behind) AS behind,
       coalesce(sum(c.behind) FILTER (c.won), 0) AS behind_wins,
       sum(c.behind_gap) / sum(c.invocations) AS mean_score_gap
FROM seat_cards c
JOIN cells ON cells.mode = CASE WHEN c.teams THEN 'team-' || c.mode WHEN c.players > 2 THEN 'melee-' || c.players
                                ELSE c.mode END
          AND cells.deck = c.deck AND cells.strategy = c.strategy
WHERE c.invocations > 0
GROUP BY cells.mode, cells.deck, cells.strategy, c.card_id
ORDER BY cells.mode, cells.deck, cells.strategy, c.card_id;
