-- cards: every card id seen in the card events, with its bit in the per-seat card sets of card_hands.sql.
-- Reads: card_events.
-- Card ids are "family/name" (docs/card-format.md): the family is a being's deck, or "legend" or "flare".
-- A seat only ever holds beings of its own deck, so one 128-bit set covers a seat's cards in one game:
-- bits 0-63 for the beings of its deck (by id within the deck), 64-95 for legends, 96-127 for flares.
CREATE OR REPLACE TABLE cards AS
WITH seen AS (
    SELECT DISTINCT card_id FROM card_events
),
placed AS (
    SELECT card_id, split_part(card_id, '/', 1) AS family,
           row_number() OVER (PARTITION BY split_part(card_id, '/', 1) ORDER BY card_id) - 1 AS family_index
    FROM seen
)
SELECT row_number() OVER (ORDER BY card_id)::USMALLINT AS card_no, card_id, family, family_index,
       CASE family WHEN 'legend' THEN 'legend' WHEN 'flare' THEN 'flare' ELSE 'being' END AS card_type,
       1::UHUGEINT << (CASE family WHEN 'legend' THEN 64 WHEN 'flare' THEN 96 ELSE 0 END + family_index)::UHUGEINT AS mask
FROM placed;
