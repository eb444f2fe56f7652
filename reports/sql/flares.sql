-- Per flare, form, deck and strategy: invocations, which halves resolved, and comebacks: invocations made
-- while behind on score (behind_by, the invoker's score minus the opponent's, below 0) and how many of
-- those the invoker went on to win. Reads: flare_events, seats.
SELECT s.mode, s.deck, s.strategy, f.flare_id AS card_id,
       count(*) AS invocations,
       count(*) FILTER (f.upper AND NOT f.lower) AS upper_only,
       count(*) FILTER (f.lower AND NOT f.upper) AS lower_only,
       count(*) FILTER (f.upper AND f.lower) AS both_halves,
       count(*) FILTER (f.behind_by < 0) AS behind,
       coalesce(sum(s.won) FILTER (f.behind_by < 0), 0) AS behind_wins,
       avg(f.behind_by) AS mean_score_gap
FROM flare_events f
JOIN seats s USING (run, game_id, seat)
GROUP BY s.mode, s.deck, s.strategy, f.flare_id
ORDER BY s.mode, s.deck, s.strategy, f.flare_id;
