import type { DbTx } from "../db/database";
import { deleteWithoutMembership } from "./reviewer.repository";

/** What a workspace leaves outside its rows once they are deleted: stored bytes, and credentials other tables know it by. */
export interface WorkspaceRemains {
  /** Storage keys of its skill files. */
  storageKeys: string[];
  /** Its API keys' ids and its OAuth grants' ids: the rate-limit counters and OAuth records name them. */
  keyIds: string[];
  grantIds: string[];
}

/** What a deletion removed, table by table (the rows the statements named; cascades come on top). */
export type PurgeCounts = Record<string, number>;

/**
 * Every row of one workspace, in every table, in the caller's transaction. Children go before the
 * tables they hang from, and the search statistics after the rows whose triggers update them (a
 * delete of artifacts writes to search_term_counts), so that nothing writes a row for a workspace
 * that is already gone. The workspaces row goes last; its foreign-key cascades would reach any
 * table a later migration adds, and tests/admin/delete-workspace.test.ts reads the catalog to
 * prove that no table keeps a row of it.
 */
export function createWorkspacePurgeRepository(db: DbTx) {
  const ofWorkspace = (workspaceId: string) => ({ where: { workspaceId } });

  return {
    /** Serialises with imports and other writers of the workspace (the same advisory lock). */
    async lock(workspaceId: string): Promise<boolean> {
      await db.$queryRaw`SELECT pg_advisory_xact_lock(hashtext(${workspaceId}))::text`;
      // On Citus, a transaction that reads across shards (the reviewers' other memberships) may then
      // delete from `reviewers`, a reference table the distributed tables refer to, only if it used
      // one connection per node throughout. Elsewhere the setting is a name nobody reads.
      await db.$executeRaw`SET LOCAL citus.multi_shard_modify_mode TO 'sequential'`;
      const found = await db.$queryRaw<Array<{ id: string }>>`SELECT id FROM workspaces WHERE id = ${workspaceId} FOR UPDATE`;
      return found.length > 0;
    },

    async remains(workspaceId: string): Promise<WorkspaceRemains> {
      const [files, keys, grants] = await Promise.all([
        db.skillFile.findMany({ ...ofWorkspace(workspaceId), select: { storageKey: true }, distinct: ["storageKey"] }),
        db.apiKey.findMany({ ...ofWorkspace(workspaceId), select: { id: true } }),
        db.connectedApp.findMany({ ...ofWorkspace(workspaceId), select: { id: true } }),
      ]);
      return { storageKeys: files.map((f) => f.storageKey), keyIds: keys.map((k) => k.id), grantIds: grants.map((g) => g.id) };
    },

    async purge(workspaceId: string, remains: WorkspaceRemains): Promise<PurgeCounts> {
      const counts: PurgeCounts = {};
      const count = async (table: string, work: PromiseLike<{ count: number } | number> | number) => {
        const result = await work;
        counts[table] = typeof result === "number" ? result : result.count;
      };
      // Artifacts take their vector rows (body chunks too) and memory-bank entries with them.
      await count("artifacts", db.artifact.deleteMany(ofWorkspace(workspaceId)));
      await count("artifact_embeddings", db.artifactEmbedding.deleteMany(ofWorkspace(workspaceId)));
      await count("memories", db.memory.deleteMany(ofWorkspace(workspaceId)));
      await count("query_patterns", db.queryPattern.deleteMany(ofWorkspace(workspaceId)));
      await count("error_learnings", db.errorLearning.deleteMany(ofWorkspace(workspaceId)));
      await count("data_sources", db.dataSource.deleteMany(ofWorkspace(workspaceId)));
      await count("skill_files", db.skillFile.deleteMany(ofWorkspace(workspaceId)));
      await count("skills", db.skill.deleteMany(ofWorkspace(workspaceId)));
      await count("directives", db.directive.deleteMany(ofWorkspace(workspaceId)));
      await count("idempotency_records", db.idempotencyRecord.deleteMany(ofWorkspace(workspaceId)));
      // Access: its grants' OAuth records (codes, tokens, the grant), the grants, its keys and their counters.
      await count("oauth_records", remains.grantIds.length > 0 ? db.oAuthRecord.deleteMany({ where: { grantId: { in: remains.grantIds } } }) : 0);
      await count("connected_apps", db.connectedApp.deleteMany(ofWorkspace(workspaceId)));
      await count("grant_workspaces", db.grantWorkspace.deleteMany(ofWorkspace(workspaceId)));
      await count("isolated_workspaces", db.isolatedWorkspace.deleteMany(ofWorkspace(workspaceId)));
      await count("api_keys", db.apiKey.deleteMany(ofWorkspace(workspaceId)));
      await count("api_key_digests", db.apiKeyDigest.deleteMany(ofWorkspace(workspaceId)));
      const counterKeys = [...remains.keyIds, ...remains.grantIds].map((id) => `key:${id}`);
      await count("rate_limit_counters", counterKeys.length > 0 ? db.rateLimitCounter.deleteMany({ where: { key: { in: counterKeys } } }) : 0);
      // Reviewers: the memberships; an account that reached no other workspace goes with its
      // sessions (as when its last membership is removed), the others keep theirs.
      const members = await db.workspaceReviewer.findMany({ ...ofWorkspace(workspaceId), select: { reviewerId: true } });
      await count("reviewer_workspaces", db.reviewerWorkspace.deleteMany(ofWorkspace(workspaceId)));
      await count("workspace_reviewers", db.workspaceReviewer.deleteMany(ofWorkspace(workspaceId)));
      const ids = members.map((m) => m.reviewerId);
      await count("reviewers", deleteWithoutMembership(db, ids));
      // After every statement whose triggers count words into them.
      await count("search_term_counts", db.$executeRaw`DELETE FROM search_term_counts WHERE workspace_id = ${workspaceId}`);
      await count("workspace_vector_indexes", db.$executeRaw`DELETE FROM workspace_vector_indexes WHERE workspace_id = ${workspaceId}`);
      await count("workspaces", db.workspace.deleteMany({ where: { id: workspaceId } }));
      return counts;
    },
  };
}

export type WorkspacePurgeRepository = ReturnType<typeof createWorkspacePurgeRepository>;
