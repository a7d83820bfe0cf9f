-- Reviewer accounts of the review console, their workspace memberships, their sign-in sessions,
-- and the failed sign-in counters that slow down password guessing.

CREATE TABLE "reviewers" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "reviewers_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "reviewers_email_key" ON "reviewers"("email");

CREATE TABLE "workspace_reviewers" (
    "workspace_id" TEXT NOT NULL,
    "reviewer_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "workspace_reviewers_pkey" PRIMARY KEY ("workspace_id", "reviewer_id")
);
CREATE INDEX "workspace_reviewers_reviewer_id_idx" ON "workspace_reviewers"("reviewer_id");
ALTER TABLE "workspace_reviewers" ADD CONSTRAINT "workspace_reviewers_workspace_id_fkey"
    FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "workspace_reviewers" ADD CONSTRAINT "workspace_reviewers_reviewer_id_fkey"
    FOREIGN KEY ("reviewer_id") REFERENCES "reviewers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "reviewer_sessions" (
    "id" TEXT NOT NULL,
    "reviewer_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "reviewer_sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "reviewer_sessions_token_hash_key" ON "reviewer_sessions"("token_hash");
CREATE INDEX "reviewer_sessions_reviewer_id_idx" ON "reviewer_sessions"("reviewer_id");
CREATE INDEX "reviewer_sessions_expires_at_idx" ON "reviewer_sessions"("expires_at");
ALTER TABLE "reviewer_sessions" ADD CONSTRAINT "reviewer_sessions_reviewer_id_fkey"
    FOREIGN KEY ("reviewer_id") REFERENCES "reviewers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "sign_in_failures" (
    "subject" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "last_failed_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("subject")
);
