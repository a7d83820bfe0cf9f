-- Splits one table of workspace rows into hash partitions by workspace_id (docs/deployment.md §6),
-- keeping its rows, keys, indexes, triggers, its foreign keys and those that point at it. Each
-- workspace's own vector index goes with the old table and is forgotten; the service's upkeep
-- builds it again, within a minute, on the partition that holds the workspace. Run it with the
-- service stopped, one table per transaction:
--
--   psql "$DATABASE_URL" -v ON_ERROR_STOP=1 --single-transaction \
--     -f scripts/partition-by-workspace.sql -c "SELECT pg_temp.partition_by_workspace('artifact_embeddings', 16)"
--
-- The copy rewrites the table and builds each index again: about as long as a restore of it.
CREATE OR REPLACE FUNCTION pg_temp.partition_by_workspace(target text, partitions int) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  old_table regclass := format('%I', target)::regclass;
  staging text := target || '_by_workspace';
  own_indexes text := target || '_own_';
  columns text;
  statements text[];
  statement text;
BEGIN
  IF (SELECT relkind FROM pg_class WHERE oid = old_table) = 'p' THEN
    RAISE EXCEPTION '% is partitioned already', target;
  END IF;
  -- What the new table needs again, in an order that works: keys before the foreign keys that
  -- point at them, triggers last so that the copy is not counted again by them.
  SELECT array_agg(definition ORDER BY step) INTO statements FROM (
    SELECT 1 AS step, format('ALTER TABLE %I ADD CONSTRAINT %I %s', target, conname, pg_get_constraintdef(oid)) AS definition
    FROM pg_constraint WHERE conrelid = old_table AND contype IN ('p', 'u')
    UNION ALL
    SELECT 2, pg_get_indexdef(x.indexrelid)
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
    WHERE x.indrelid = old_table AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
      AND left(i.relname, length(own_indexes)) <> own_indexes
    UNION ALL
    -- conparentid: not the copies PostgreSQL keeps per partition of a partitioned table.
    SELECT 3, format('ALTER TABLE %s ADD CONSTRAINT %I %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
    FROM pg_constraint WHERE contype = 'f' AND (conrelid = old_table OR confrelid = old_table) AND conparentid = 0
    UNION ALL
    SELECT 4, pg_get_triggerdef(oid) FROM pg_trigger WHERE tgrelid = old_table AND NOT tgisinternal
  ) AS needed;
  -- Generated columns (the search documents) are computed again, not copied.
  SELECT string_agg(format('%I', attname), ', ' ORDER BY attnum) INTO columns
  FROM pg_attribute WHERE attrelid = old_table AND attnum > 0 AND NOT attisdropped AND attgenerated = '';

  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING ALL EXCLUDING INDEXES) PARTITION BY HASH ("workspace_id")', staging, target);
  FOR remainder IN 0 .. partitions - 1 LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES WITH (MODULUS %s, REMAINDER %s)', target || '_p' || remainder, staging, partitions, remainder);
  END LOOP;
  EXECUTE format('INSERT INTO %I (%s) SELECT %s FROM %I', staging, columns, columns, target);
  -- The foreign keys that point at the old table go first; anything else that depends on it
  -- stops the drop, and the transaction, rather than going with it.
  FOR statement IN
    SELECT format('ALTER TABLE %s DROP CONSTRAINT %I', conrelid::regclass, conname)
    FROM pg_constraint WHERE contype = 'f' AND confrelid = old_table AND conrelid <> old_table AND conparentid = 0
  LOOP
    EXECUTE statement;
  END LOOP;
  EXECUTE format('DROP TABLE %I', target);
  EXECUTE format('ALTER TABLE %I RENAME TO %I', staging, target);
  FOREACH statement IN ARRAY statements LOOP
    EXECUTE statement;
  END LOOP;
  DELETE FROM "workspace_vector_indexes" WHERE "vector_table" = target;
END
$fn$;
