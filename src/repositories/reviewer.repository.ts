import type { DbTx } from "../db/database";
import { isDatabaseUnavailable } from "../db/database-errors";
import { onBehalfOf } from "../db/workspace-scope";
import { newId } from "../lib/ids";

export interface ReviewerRecord {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
}

const REVIEWER_FIELDS = { id: true, email: true, name: true, createdAt: true } as const;
const BY_NAME = new Intl.Collator("en");

/**
 * Deletes those of the accounts that reach no workspace any more, with their sessions; how many.
 * The memberships are read first, then the accounts deleted by id: a distributed PostgreSQL (Citus)
 * does not run a delete of the accounts (a table on every node) that tests the memberships (split
 * by workspace) in the same statement.
 */
export async function deleteWithoutMembership(db: DbTx, reviewerIds: string[]): Promise<number> {
  if (reviewerIds.length === 0) return 0;
  const members = await db.workspaceReviewer.findMany({ where: { reviewerId: { in: reviewerIds } }, select: { reviewerId: true }, distinct: ["reviewerId"] });
  const still = new Set(members.map((member) => member.reviewerId));
  const gone = reviewerIds.filter((id) => !still.has(id));
  if (gone.length === 0) return 0;
  return (await db.reviewer.deleteMany({ where: { id: { in: gone } } })).count;
}

export function createReviewerRepository(db: DbTx) {
  return {
    /** Creates the account, or updates name and password of the one with this email. */
    upsert(data: { email: string; name: string; passwordHash: string }): Promise<ReviewerRecord> {
      return db.reviewer.upsert({
        where: { email: data.email },
        create: { id: newId("rev"), ...data },
        update: { name: data.name, passwordHash: data.passwordHash },
        select: REVIEWER_FIELDS,
      });
    },

    /**
     * The membership, then the reviewer's own list of workspaces (reviewer_workspaces), which the
     * console reads on one node and trusts: it never names a workspace the membership does not.
     */
    async addMembership(workspaceId: string, reviewerId: string): Promise<void> {
      await db.workspaceReviewer.upsert({
        where: { workspaceId_reviewerId: { workspaceId, reviewerId } },
        create: { workspaceId, reviewerId },
        update: {},
      });
      await db.reviewerWorkspace.upsert({ where: { reviewerId_workspaceId: { reviewerId, workspaceId } }, create: { reviewerId, workspaceId }, update: {} });
    },

    async listByWorkspace(workspaceId: string): Promise<ReviewerRecord[]> {
      const rows = await db.workspaceReviewer.findMany({
        where: { workspaceId },
        select: { reviewer: { select: REVIEWER_FIELDS } },
        orderBy: { reviewer: { email: "asc" } },
      });
      return rows.map((row) => row.reviewer);
    },

    /** Removes the membership; an account left with no workspace is deleted with its sessions. */
    async removeMembership(workspaceId: string, reviewerId: string): Promise<boolean> {
      // The reviewer's list first, so that it never names a workspace the membership no longer does.
      await db.reviewerWorkspace.deleteMany({ where: { reviewerId, workspaceId } });
      const removed = await db.workspaceReviewer.deleteMany({ where: { workspaceId, reviewerId } });
      if (removed.count === 0) return false;
      await deleteWithoutMembership(db, [reviewerId]);
      return true;
    },

    findByEmail(email: string): Promise<(ReviewerRecord & { passwordHash: string }) | null> {
      return db.reviewer.findUnique({ where: { email }, select: { ...REVIEWER_FIELDS, passwordHash: true } });
    },

    /**
     * The workspaces a reviewer belongs to, by name. Their ids come from the reviewer's own list (a
     * reference table on Citus: one node), and each name from its workspace's own node, on behalf
     * of that workspace: a workspace whose node is away is listed by its id rather than failing
     * every page of the console (docs/deployment.md, "When a node fails").
     */
    async workspacesOf(reviewerId: string): Promise<Array<{ id: string; name: string }>> {
      const ids = (await db.reviewerWorkspace.findMany({ where: { reviewerId }, select: { workspaceId: true } })).map((row) => row.workspaceId);
      const named = await Promise.all(
        ids.map((id) =>
          // findFirst: Prisma would batch findUnique calls made together into one statement on every node.
          onBehalfOf(id, async () => await db.workspace.findFirst({ where: { id }, select: { id: true, name: true } })).catch((error: unknown) => {
            if (isDatabaseUnavailable(error)) return { id, name: id };
            throw error;
          }),
        ),
      );
      return named.filter((workspace) => workspace !== null).sort((a, b) => BY_NAME.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    },

    async createSession(reviewerId: string, tokenHash: string, expiresAt: Date): Promise<void> {
      await db.reviewerSession.create({ data: { id: newId("ses"), reviewerId, tokenHash, expiresAt } });
    },

    async findSession(tokenHash: string, now: Date): Promise<ReviewerRecord | null> {
      const session = await db.reviewerSession.findFirst({
        where: { tokenHash, expiresAt: { gt: now } },
        select: { reviewer: { select: REVIEWER_FIELDS } },
      });
      return session?.reviewer ?? null;
    },

    async deleteSession(tokenHash: string): Promise<void> {
      await db.reviewerSession.deleteMany({ where: { tokenHash } });
    },

    /** Deletes up to `limit` sessions expired by `now`; how many. */
    purgeExpiredSessions(now: Date, limit: number): Promise<number> {
      return db.$executeRaw`
        DELETE FROM "reviewer_sessions" WHERE "id" IN (
          SELECT "id" FROM "reviewer_sessions" WHERE "expires_at" <= ${now} LIMIT ${limit})`;
    },

    failures(subjects: string[]): Promise<Array<{ subject: string; failures: number; lastFailedAt: Date }>> {
      return db.signInFailure.findMany({ where: { subject: { in: subjects } } });
    },

    /** Counts one more failure, starting again from one when the last was before `forgetBefore`. */
    async recordFailure(subject: string, at: Date, forgetBefore: Date): Promise<void> {
      await db.$executeRaw`
        INSERT INTO sign_in_failures (subject, failures, last_failed_at) VALUES (${subject}, 1, ${at})
        ON CONFLICT (subject) DO UPDATE SET
          failures = CASE WHEN sign_in_failures.last_failed_at < ${forgetBefore} THEN 1 ELSE sign_in_failures.failures + 1 END,
          last_failed_at = ${at}`;
    },

    async clearFailures(subject: string): Promise<void> {
      await db.signInFailure.deleteMany({ where: { subject } });
    },

    /** Deletes up to `limit` failure counts whose last failure was before `before`; how many. */
    purgeFailures(before: Date, limit: number): Promise<number> {
      return db.$executeRaw`
        DELETE FROM "sign_in_failures" WHERE "subject" IN (
          SELECT "subject" FROM "sign_in_failures" WHERE "last_failed_at" < ${before} LIMIT ${limit})`;
    },
  };
}

export type ReviewerRepository = ReturnType<typeof createReviewerRepository>;
