-- How often control is passed: per form and player (the seat's label), the seat-games, the times the seat
-- handed its turn to its teammate (before an action, or inside an effect: pass_control.during is the card
-- whose effect was being resolved), and the seat-games with at least one pass. Reads: seats
-- (team_seats.sql), pass_control.
WITH per_seat AS (
    SELECT run, game_id, seat, count(*) AS passes, count(*) FILTER (during = '') AS before_action,
           count(*) FILTER (during <> '') AS inside_effect
    FROM pass_control
    GROUP BY run, game_id, seat
)
SELECT s.mode, s.strategy, count(*) AS games, coalesce(sum(p.passes), 0) AS passes,
       coalesce(sum(p.before_action), 0) AS before_action, coalesce(sum(p.inside_effect), 0) AS inside_effect,
       count(p.passes) AS passing_games
FROM seats s
LEFT JOIN per_seat p USING (run, game_id, seat)
GROUP BY s.mode, s.strategy
ORDER BY s.mode, s.strategy;
