-- Melee score per colour: per form, the mean of each seat's lowest, middle (4 players) and highest colour
-- score at the end, their standard deviations (the charts' t intervals), and how often the seat's colours are
-- level. Reads: colour_points, games.
WITH per_seat AS (
    SELECT c.run, c.game_id, c.seat, g.players,
           min(c.points) AS lowest, max(c.points) AS highest, sum(c.points) AS total, count(*) AS colours
    FROM colour_points c
    JOIN games g USING (run, game_id)
    GROUP BY c.run, c.game_id, c.seat, g.players
)
SELECT 'melee-' || players AS mode, count(*) AS seat_games,
       avg(lowest) AS mean_lowest, avg(total - lowest - highest) FILTER (colours = 3) AS mean_middle,
       avg(highest) AS mean_highest, avg(total / colours) AS mean_colour,
       stddev_samp(lowest) AS sd_lowest, stddev_samp(total - lowest - highest) FILTER (colours = 3) AS sd_middle,
       stddev_samp(highest) AS sd_highest, stddev_samp(total / colours) AS sd_colour,
       count(*) FILTER (colours = 3) AS middle_seats,
       count(*) FILTER (lowest = highest) AS level_seats
FROM per_seat
GROUP BY players
ORDER BY players;
