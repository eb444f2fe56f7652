-- Per flare, form, deck and strategy, with the seat-game as the unit: invocations, the seat-games it was
-- invoked in, in how many of them only its upper half, only its lower half, or both halves were used, and
-- comebacks: seat-games in which it was invoked while behind on score (behind_by, the invoker's score
-- minus the opponent's, below 0) and how many of those the invoker won. Reads: flare_events, seats.
WITH per_game AS (
    SELECT run, game_id, seat, flare_id,
           count(*) AS invocations,
           bool_or(upper) AS upper,
           bool_or(lower) AS lower,
           bool_or(behind_by < 0) AS behind,
           sum(behind_by) AS gap_sum
    FROM flare_events
    GROUP BY run, game_id, seat, flare_id
)
SELECT s.mode, s.deck, s.strategy, f.flare_id AS card_id,
       sum(f.invocations) AS invocations,
       count(*) AS games,
       count(*) FILTER (f.upper AND NOT f.lower) AS upper_only,
       count(*) FILTER (f.lower AND NOT f.upper) AS lower_only,
       count(*) FILTER (f.upper AND f.lower) AS both_halves,
       count(*) FILTER (f.behind) AS behind,
       coalesce(sum(s.won) FILTER (f.behind), 0) AS behind_wins,
       sum(f.gap_sum) / sum(f.invocations) AS mean_score_gap
FROM per_game f
JOIN seats s USING (run, game_id, seat)
GROUP BY s.mode, s.deck, s.strategy, f.flare_id
ORDER BY s.mode, s.deck, s.strategy, f.flare_id;
