-- How often control is passed, per game: per form, the games, the passes, those before an action and inside
-- an effect, and the games with at least one pass. Reads: games, pass_control.
WITH per_game AS (
    SELECT run, game_id, count(*) AS passes, count(*) FILTER (during = '') AS before_action,
           count(*) FILTER (during <> '') AS inside_effect
    FROM pass_control
    GROUP BY run, game_id
)
SELECT 'team-' || g.mode AS mode, count(*) AS games, coalesce(sum(p.passes), 0) AS passes,
       coalesce(sum(p.before_action), 0) AS before_action, coalesce(sum(p.inside_effect), 0) AS inside_effect,
       count(p.passes) AS passing_games
FROM games g
LEFT JOIN per_game p USING (run, game_id)
GROUP BY g.mode
ORDER BY g.mode;
