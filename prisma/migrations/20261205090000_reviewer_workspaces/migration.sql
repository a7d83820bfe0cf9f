-- Every console page reads the signed-in reviewer's workspaces before any workspace is chosen. On
-- Citus workspace_reviewers is split by workspace, so that read was a statement on every shard:
-- with one worker away, every console page failed for every reviewer, whichever node held their
-- workspaces. This table names each reviewer's workspaces; it is copied to every node (a reference
-- table: src/db/table-distribution.ts), so the read reaches one node. workspace_reviewers stays the
-- membership each workspace's own statements read. The memberships made before are copied in here.
CREATE TABLE "reviewer_workspaces" (
    "reviewer_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    CONSTRAINT "reviewer_workspaces_pkey" PRIMARY KEY ("reviewer_id", "workspace_id")
);

INSERT INTO "reviewer_workspaces" ("reviewer_id", "workspace_id")
SELECT "reviewer_id", "workspace_id" FROM "workspace_reviewers"
ON CONFLICT DO NOTHING;

-- A workspace's rows go with it (workspace-purge.repository.ts) and an account's with it
-- (reviewer.repository.ts); no foreign keys, which Citus refuses from a reference table to a
-- distributed one. Found by workspace for the purge.
CREATE INDEX "reviewer_workspaces_workspace_id_idx" ON "reviewer_workspaces" ("workspace_id");
