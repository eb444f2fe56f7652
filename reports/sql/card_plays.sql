-- Per being or legend, form, deck and strategy: what one play of the card did, on average: the turn it
-- was played, the enemy pieces its summon and effect destroyed by rank, its own pieces destroyed,
-- upgrades, downgrades, pieces placed and converted, and the points its player scored in that turn
-- (from every source: shared with anything else done that turn). For legends also the mean turn of a
-- seat's first summon of it in a game (legend ids start with "legend/"). For the expansion decks' beings also
-- how often the card became its seat's frozen effect, was thawed (Everfrost) and had its warp text played from
-- hand (Etherweave); 0 for every other card and in runs of schema versions before 5.
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
expansion_plays AS (  -- the expansions' free plays and frozen effects, per card
    SELECT s.cell, e.card_id,
           count(*) FILTER (e.event = 'frozen') AS frozen,
           count(*) FILTER (e.event = 'thawed') AS thawed,
           count(*) FILTER (e.event = 'warped') AS warped
    FROM card_events e
    JOIN seats s USING (run, game_id, seat)
    WHERE e.event IN ('frozen', 'thawed', 'warped')
    GROUP BY s.cell, e.card_id
),
per_legend AS (
    SELECT s.cell, f.card_id, avg(f.turn) AS first_summon_turn
    FROM first_summons f
    JOIN seats s USING (run, game_id, seat)
    GROUP BY s.cell, f.card_id
)
SELECT cells.mode, cells.deck, cells.strategy, c.card_id, coalesce(c.plays, 0) AS plays,
       c.* EXCLUDE (cell, card_id, plays), l.first_summon_turn,
       coalesce(x.frozen, 0) AS frozen, coalesce(x.thawed, 0) AS thawed, coalesce(x.warped, 0) AS warped
FROM (SELECT coalesce(p.cell, x.cell) AS cell, coalesce(p.card_id, x.card_id) AS card_id, p.* EXCLUDE (cell, card_id)
      FROM per_card p FULL JOIN expansion_plays x ON p.cell = x.cell AND p.card_id = x.card_id) c
JOIN cells USING (cell)
LEFT JOIN per_legend l USING (cell, card_id)
LEFT JOIN expansion_plays x USING (cell, card_id)
ORDER BY cells.mode, cells.deck, cells.strategy, c.card_id;
