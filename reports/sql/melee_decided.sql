-- What decided the melees: per form, the games, how many the lowest colour score decided alone (no
-- tiebreak) and how many each tiebreak did, and the games the player with the best single colour score did
-- not win (his lowest colour let him down). Reads: games, colour_points.
WITH best_colour AS (
    SELECT run, game_id, max(points) AS best FROM colour_points GROUP BY run, game_id
),
best_holders AS (  -- the seats holding the game's best single colour score
    SELECT c.run, c.game_id, bool_or(c.seat = g.winner) AS winner_holds
    FROM colour_points c
    JOIN best_colour b USING (run, game_id)
    JOIN games g USING (run, game_id)
    WHERE c.points = b.best
    GROUP BY c.run, c.game_id
)
SELECT 'melee-' || g.players AS mode, count(*) AS games,
       count(*) FILTER (g.tiebreak = '') AS by_lowest,
       count(*) FILTER (g.tiebreak = 'second-lowest') AS by_second_lowest,
       count(*) FILTER (g.tiebreak = 'highest') AS by_highest,
       count(*) FILTER (g.tiebreak = 'upgraded') AS by_upgraded,
       count(*) FILTER (g.tiebreak = 'pieces') AS by_pieces,
       count(*) FILTER (g.tiebreak = 'tie') AS shared,
       count(*) FILTER (g.winner >= 0 AND NOT h.winner_holds) AS best_colour_lost
FROM games g
JOIN best_holders h USING (run, game_id)
GROUP BY g.players
ORDER BY g.players;
