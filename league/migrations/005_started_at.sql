-- 005: when a game began (the table's clock at its first stored event, corrected by the
-- same clock_offset as finished_at), for the BG Stats export's durationMin; NULL: not
-- known (a game pushed by a table from before results carried started_at).
ALTER TABLE games ADD COLUMN started_at double precision;
