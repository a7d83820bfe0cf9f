-- OAuth for hosted MCP connectors (docs/mcp.md): the authorization server's own records, and the
-- grants a console account approved for one of its workspaces ("connected apps").

-- Everything the authorization server stores (clients, interactions, codes, tokens, grants), one
-- row per record. Records whose id is a bearer secret (codes and tokens) are keyed by the SHA-256
-- of the id; the id itself is never stored.
CREATE TABLE "oauth_records" (
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "uid" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "oauth_records_pkey" PRIMARY KEY ("kind", "key")
);
CREATE INDEX "oauth_records_grant_id_idx" ON "oauth_records"("grant_id");
CREATE INDEX "oauth_records_uid_idx" ON "oauth_records"("uid");
CREATE INDEX "oauth_records_expires_at_idx" ON "oauth_records"("expires_at");
-- Registrations are counted (per address and in all) before another is accepted.
CREATE INDEX "oauth_records_kind_created_at_idx" ON "oauth_records"("kind", "created_at");

CREATE TABLE "connected_apps" (
    "workspace_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "reviewer_id" TEXT,
    "granted_by" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_name" TEXT NOT NULL,
    "redirect_host" TEXT NOT NULL,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    CONSTRAINT "connected_apps_pkey" PRIMARY KEY ("workspace_id", "id")
);
-- A token names its grant only: the grant is found by id before its workspace is known.
CREATE INDEX "connected_apps_id_idx" ON "connected_apps"("id");
ALTER TABLE "connected_apps" ADD CONSTRAINT "connected_apps_workspace_id_fkey"
    FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "connected_apps" ADD CONSTRAINT "connected_apps_reviewer_id_fkey"
    FOREIGN KEY ("reviewer_id") REFERENCES "reviewers"("id") ON DELETE SET NULL ON UPDATE CASCADE;
