-- Per being or legend, form, deck and strategy: what one play of the card did, on average: the turn it
-- was played, the enemy pieces its summon and effect destroyed by rank, its own pieces destroyed,
-- upgrades, downgrades, pieces placed and converted, and the points its player scored in that turn
-- (from every source: shared with anything else done that turn). For legends also the mean turn of a
-- seat's first summon of it in a game (legend ids start with "legend/").
-- Reads: card_events, seats and cells (seats.sql), points.
WITH plays AS MATERIALIZED (
    SELECT run, game_id, seat, turn, card_id, enemy_common, enemy_heroic, enemy_legendary,
           own_destroyed, upgrades, downgrades, placed, converted
    FROM card_events
    WHERE event = 'played'
),
turn_points AS (
    SELECT run, game_id, turn, seat, sum(points) AS points
    FROM points
    GROUP BY run, game_id, turn, seat
),
per_card AS (
    SELECT s.cell, p.card_id,
           count(*) AS plays,
           avg(p.turn) AS mean_turn,
           avg(p.enemy_common) AS enemy_common,
           avg(p.enemy_heroic) AS enemy_heroic,
           avg(p.enemy_legendary) AS enemy_legendary,
           avg(p.own_destroyed) AS own_destroyed,
           avg(p.upgrades) AS upgrades,
           avg(p.downgrades) AS downgrades,
           avg(p.placed) AS placed,
           avg(p.converted) AS converted,
           avg(coalesce(tp.points, 0)) AS turn_points
    FROM plays p
    JOIN seats s USING (run, game_id, seat)
    LEFT JOIN turn_points tp USING (run, game_id, turn, seat)
    GROUP BY s.cell, p.card_id
),
first_summons AS (  -- a legend's first summon by a seat in a game
    SELECT run, game_id, seat, card_id, min(turn) AS turn
    FROM plays
    WHERE card_id LIKE 'legend/%'
    GROUP BY run, game_id, seat, card_id
),
per_legend AS (
    SELECT s.cell, f.card_id, avg(f.turn) AS first_summon_turn
    FROM first_summons f
    JOIN seats s USING (run, game_id, seat)
    GROUP BY s.cell, f.card_id
)
SELECT cells.mode, cells.deck, cells.strategy, c.* EXCLUDE (cell), l.first_summon_turn
FROM per_card c
JOIN cells USING (cell)
LEFT JOIN per_legend l USING (cell, card_id)
ORDER BY cells.mode, cells.deck, cells.strategy, c.card_id;
