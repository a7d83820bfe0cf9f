-- A connector's access token names its grant, and the grant's workspace is what authentication is
-- looking for: on Citus connected_apps is split by workspace, so finding a grant by its id alone was
-- a statement on every shard, refused by every node while one worker was down. As for API keys
-- (migration `key_digests`), this table names each grant's workspace on every node (a reference
-- table: src/db/table-distribution.ts); the grant's row is then read on its workspace's node.
-- Grants approved before are copied in here.
CREATE TABLE "grant_workspaces" (
    "grant_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    CONSTRAINT "grant_workspaces_pkey" PRIMARY KEY ("grant_id")
);

INSERT INTO "grant_workspaces" ("grant_id", "workspace_id")
SELECT "id", "workspace_id" FROM "connected_apps"
ON CONFLICT ("grant_id") DO NOTHING;

-- A workspace's rows go with it (workspace-purge.repository.ts); found by workspace for that.
CREATE INDEX "grant_workspaces_workspace_id_idx" ON "grant_workspaces" ("workspace_id");
