-- Authentication finds a key by the digest of its secret before it knows the key's workspace. On
-- Citus api_keys is split by workspace, so that look-up was a statement on every shard: with one
-- worker down, every key whose cached look-up had expired was refused, whichever node held its
-- workspace. This table names each digest's key and workspace; it is copied to every node (a
-- reference table: src/db/table-distribution.ts), so the look-up reads one node, and the key's own
-- row is then read on the node of its workspace. Keys issued before are copied in here.
CREATE TABLE "api_key_digests" (
    "hash" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    CONSTRAINT "api_key_digests_pkey" PRIMARY KEY ("hash")
);

INSERT INTO "api_key_digests" ("hash", "workspace_id", "key_id")
SELECT "hash", "workspace_id", "id" FROM "api_keys"
ON CONFLICT ("hash") DO NOTHING;

-- A workspace's digests go with it (workspace-purge.repository.ts); no foreign key, which Citus
-- refuses from a reference table to a distributed one. Found by workspace for that.
CREATE INDEX "api_key_digests_workspace_id_idx" ON "api_key_digests" ("workspace_id");
