-- Per being or legend, form, deck and strategy: what one play of the card did, on average: the turn it
-- was played, the enemy pieces its summon and effect destroyed by rank, its own pieces destroyed,
-- upgrades, downgrades, pieces placed and converted, and the points its player scored in that turn
-- (from every source: shared with anything else done that turn). For legends also the mean turn of a
-- seat's first summon of it in a game (legend ids start with "legend/"). For the expansion decks' beings also
-- how often the card became its seat's frozen effect, was thawed (Everfrost) and had its warp text played from
-- hand (Etherweave); 0 for every other card and in runs of schema versions before 5.
-- Reads: card_totals (cards.sql), cells (seats.sql). The means are the sums over the plays divided by the
-- plays (DuckDB's avg of integers divides the same way, so the figures are those of averaging every play).
SELECT cells.mode, cells.deck, cells.strategy, t.card_id, t.plays,
       t.play_turns::DOUBLE / nullif(t.plays, 0) AS mean_turn,
       t.enemy_common::DOUBLE / nullif(t.plays, 0) AS enemy_common,
       t.enemy_heroic::DOUBLE / nullif(t.plays, 0) AS enemy_heroic,
       t.enemy_legendary::DOUBLE / nullif(t.plays, 0) AS enemy_legendary,
       t.own_destroyed::DOUBLE / nullif(t.plays, 0) AS own_destroyed,
       t.upgrades::DOUBLE / nullif(t.plays, 0) AS upgrades,
       t.downgrades::DOUBLE / nullif(t.plays, 0) AS downgrades,
       t.placed::DOUBLE / nullif(t.plays, 0) AS placed,
       t.converted::DOUBLE / nullif(t.plays, 0) AS converted,
       t.turn_points::DOUBLE / nullif(t.plays, 0) AS turn_points,
       CASE WHEN t.card_id LIKE 'legend/%' THEN t.first_play_turns::DOUBLE / nullif(t.first_plays, 0) END
           AS first_summon_turn,
       t.frozen, t.thawed, t.warped
FROM card_totals t
JOIN cells USING (cell)
WHERE t.plays > 0 OR t.frozen + t.thawed + t.warped > 0
ORDER BY cells.mode, cells.deck, cells.strategy, t.card_id;
