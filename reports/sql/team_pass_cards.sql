-- Passing inside an effect: per form and card (pass_control.during, the card whose effect was being
-- resolved), the passes and the games they happened in. Reads: games, pass_control.
SELECT 'team-' || g.mode AS mode, p.during AS card_id, count(*) AS passes,
       count(DISTINCT (p.run, p.game_id)) AS games
FROM pass_control p
JOIN games g USING (run, game_id)
WHERE p.during <> ''
GROUP BY g.mode, p.during
ORDER BY g.mode, passes DESC, p.during;
