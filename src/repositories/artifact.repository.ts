import { artifactBodyText } from "../search/artifact-body-text";
import type { DbTx } from "../db/database";
import { Prisma, type ArtifactStatus, type ArtifactTrigger } from "../generated/prisma/client";
import { newId, newSortableId } from "../lib/ids";

export interface NewArtifact {
  trigger: ArtifactTrigger;
  status: ArtifactStatus;
  summary: string;
  why: string;
  confidence: number;
  confidenceExplanation: string;
  content?: unknown;
  recommendation?: string | null;
  keyFindings?: string[] | null;
  recommendations?: unknown[] | null;
  sourceSystem?: string | null;
  dataSources?: unknown[] | null;
  codeExecuted?: unknown[] | null;
  createdByKeyId: string | null;
  createdBy: string;
  validatedAt?: Date | null;
  validatedBy?: string | null;
  disputedAt?: Date | null;
  disputedBy?: string | null;
  disputeReason?: string | null;
  previousArtifactId?: string | null;
  createdAt: Date;
}

/**
 * What lists show (search results, feedback, the review queue): everything but `content`, which
 * can be a megabyte a row and is only returned by a fetch.
 */
export const ARTIFACT_SUMMARY_FIELDS = {
  id: true,
  status: true,
  trigger: true,
  summary: true,
  why: true,
  confidence: true,
  confidenceExplanation: true,
  recommendation: true,
  keyFindings: true,
  recommendations: true,
  sourceSystem: true,
  dataSources: true,
  codeExecuted: true,
  createdBy: true,
  validatedAt: true,
  validatedBy: true,
  disputeReason: true,
  previousArtifactId: true,
  createdAt: true,
} as const satisfies Prisma.ArtifactSelect;

export const ARTIFACT_FIELDS = { ...ARTIFACT_SUMMARY_FIELDS, content: true } as const satisfies Prisma.ArtifactSelect;

export type ArtifactSummaryRecord = Prisma.ArtifactGetPayload<{ select: typeof ARTIFACT_SUMMARY_FIELDS }>;
export type ArtifactRecord = Prisma.ArtifactGetPayload<{ select: typeof ARTIFACT_FIELDS }>;

const QUEUE_FIELDS = {
  id: true,
  status: true,
  trigger: true,
  summary: true,
  why: true,
  confidence: true,
  createdBy: true,
  createdAt: true,
  validatedAt: true,
  validatedBy: true,
  disputeReason: true,
} as const satisfies Prisma.ArtifactSelect;

export type QueueEntry = Prisma.ArtifactGetPayload<{ select: typeof QUEUE_FIELDS }>;

/** Everything an export writes of an artifact: its fields, its review and how it came in. */
const EXPORT_FIELDS = {
  ...ARTIFACT_FIELDS,
  trigger: true,
  disputedAt: true,
  disputedBy: true,
} as const satisfies Prisma.ArtifactSelect;

export type ExportedArtifactRecord = Prisma.ArtifactGetPayload<{ select: typeof EXPORT_FIELDS }>;

export interface FeedbackPosition {
  createdAt: Date;
  id: string;
}

/** Absent and null both become SQL NULL; anything else is stored as given. */
const jsonOrNull = (value: unknown) =>
  value === undefined || value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue);

/**
 * The body's text for the lexical search document and the chunks, written only once the artifact is
 * searchable (migration `body_chunks_when_validated`): with an import of validated artifacts, or
 * with the validation of a draft.
 */
const searchableBodyText = (content: unknown) => artifactBodyText(content) || null;

/** The artifact's own columns as written. */
function artifactColumns(id: string, workspaceId: string, artifact: NewArtifact) {
  const { content, keyFindings, recommendations, dataSources, codeExecuted, ...scalars } = artifact;
  return {
    ...scalars,
    id,
    workspaceId,
    content: jsonOrNull(content),
    bodyText: artifact.status === "validated" ? searchableBodyText(content) : null,
    keyFindings: jsonOrNull(keyFindings),
    recommendations: jsonOrNull(recommendations),
    dataSources: jsonOrNull(dataSources),
    codeExecuted: jsonOrNull(codeExecuted),
  };
}

/**
 * What search reads of a validated artifact besides its own row: its pending vector rows (the
 * model embeds them in the background) and its active memory-bank entry. A draft has neither until
 * its validation (migration `drafts_without_vectors`): no search finds a draft, so the model's time
 * goes to what can be found. Without their keys to the artifact (workspace and id), which a nested
 * create takes from the artifact itself.
 */
function searchedRows(id: string, artifact: Pick<NewArtifact, "summary" | "createdAt">) {
  return {
    vectors: (["headline", "body"] as const).map((facet) => ({ id: `${id}:${facet}`, facet, searchable: true })),
    memory: { id: newId("mem"), type: "finding" as const, statement: artifact.summary, active: true, createdAt: artifact.createdAt },
  };
}

/** Prisma copies JSON input key by key, which drops an own `__proto__` key: content is stored as submitted, so such content is written again as its JSON text. */
function keepsProtoKey(content: unknown): boolean {
  return content !== undefined && content !== null && typeof content !== "string" && JSON.stringify(content).includes('"__proto__"');
}

export function createArtifactRepository(db: DbTx) {
  async function rewriteContent(workspaceId: string, id: string, content: unknown) {
    // As json, which keeps the text as written (jsonb would reorder the keys and space them).
    await db.$executeRaw`UPDATE "artifacts" SET "content" = ${JSON.stringify(content)}::json WHERE "workspace_id" = ${workspaceId} AND "id" = ${id}`;
  }

  return {
    /**
     * Imported artifacts with their memory-bank entries and (pending) vector rows, inside the
     * caller's transaction, one statement per table: the triggers that keep the word counts
     * (migration `search_at_scale`) then run once for all of them rather than once each, which made
     * an import of 1,000 artifacts three times slower. (A push writes through
     * artifact-push.repository.ts.)
     * Returns the ids in input order.
     */
    async insertMany(workspaceId: string, artifacts: NewArtifact[]): Promise<string[]> {
      if (artifacts.length === 0) return [];
      const rows = artifacts.map((artifact) => ({ id: newSortableId("art", artifact.createdAt), artifact }));
      await db.artifact.createMany({ data: rows.map(({ id, artifact }) => artifactColumns(id, workspaceId, artifact)) });
      const searched = rows.filter(({ artifact }) => artifact.status === "validated").map(({ id, artifact }) => ({ id, ...searchedRows(id, artifact) }));
      if (searched.length > 0) {
        await db.artifactEmbedding.createMany({ data: searched.flatMap(({ id, vectors }) => vectors.map((vector) => ({ ...vector, workspaceId, artifactId: id }))) });
        await db.memory.createMany({ data: searched.map(({ id, memory }) => ({ ...memory, workspaceId, artifactId: id })) });
      }
      for (const { id, artifact } of rows) if (keepsProtoKey(artifact.content)) await rewriteContent(workspaceId, id, artifact.content);
      return rows.map((row) => row.id);
    },

    /** One page of externally pushed artifacts, newest first, strictly after `after` (keyset). */
    feedbackPage(
      workspaceId: string,
      options: { pushedByKeyId?: string; status?: ArtifactStatus; after?: FeedbackPosition; take: number },
    ): Promise<ArtifactSummaryRecord[]> {
      const { after } = options;
      return db.artifact.findMany({
        where: {
          workspaceId,
          trigger: "external",
          ...(options.pushedByKeyId ? { createdByKeyId: options.pushedByKeyId } : {}),
          ...(options.status ? { status: options.status } : {}),
          ...(after
            ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
            : {}),
        },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: options.take,
        select: ARTIFACT_SUMMARY_FIELDS,
      });
    },

    /** The review queue without bodies: newest first, optionally of one status and one pushing key. */
    listQueue(
      workspaceId: string,
      options: { status?: ArtifactStatus; pushedByKeyId?: string; take: number },
    ): Promise<QueueEntry[]> {
      return db.artifact.findMany({
        where: {
          workspaceId,
          ...(options.status ? { status: options.status } : {}),
          ...(options.pushedByKeyId ? { createdByKeyId: options.pushedByKeyId } : {}),
        },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: options.take,
        select: QUEUE_FIELDS,
      });
    },

    /** How many artifacts of the workspace are in each status, optionally of one pushing key. */
    async countByStatus(workspaceId: string, pushedByKeyId?: string): Promise<Record<ArtifactStatus, number>> {
      const groups = await db.artifact.groupBy({
        by: ["status"],
        where: { workspaceId, ...(pushedByKeyId ? { createdByKeyId: pushedByKeyId } : {}) },
        _count: { _all: true },
      });
      const counts: Record<ArtifactStatus, number> = { draft: 0, validated: 0, disputed: 0 };
      for (const group of groups) counts[group.status] = group._count._all;
      return counts;
    },

    /** An artifact in any status, if it belongs to one of the given workspaces. */
    findInWorkspaces(workspaceIds: string[], artifactId: string): Promise<(ArtifactRecord & { workspaceId: string }) | null> {
      return db.artifact.findFirst({
        where: { id: artifactId, workspaceId: { in: workspaceIds } },
        select: { ...ARTIFACT_FIELDS, workspaceId: true },
      });
    },

    /**
     * The workspace of an artifact known by id alone (the admin API's deprecated review paths), so
     * that what follows can name it; through the index on the id, since the primary key begins with the workspace.
     */
    async workspaceOf(artifactId: string): Promise<string | null> {
      const artifact = await db.artifact.findFirst({ where: { id: artifactId }, select: { workspaceId: true } });
      return artifact?.workspaceId ?? null;
    },

    /**
     * One page of the workspace's artifacts for an export, oldest first, strictly after `after`
     * (keyset on the primary key's order within the workspace), so that a workspace of any size is
     * read a page at a time.
     */
    exportPage(workspaceId: string, options: { afterId?: string; take: number }): Promise<ExportedArtifactRecord[]> {
      return db.artifact.findMany({
        where: { workspaceId, ...(options.afterId === undefined ? {} : { id: { gt: options.afterId } }) },
        orderBy: { id: "asc" },
        take: options.take,
        select: EXPORT_FIELDS,
      });
    },

    /**
     * Deletes the artifact, and with it (foreign-key cascades) its vector rows, body chunks among
     * them, and its memory-bank entry; the statement-level triggers take its words out of the
     * search statistics. False when the workspace has no such artifact.
     */
    async delete(workspaceId: string, artifactId: string): Promise<boolean> {
      const deleted = await db.artifact.deleteMany({ where: { workspaceId, id: artifactId } });
      return deleted.count > 0;
    },

    async findStatus(workspaceId: string, artifactId: string): Promise<ArtifactStatus | null> {
      const artifact = await db.artifact.findUnique({ where: { workspaceId_id: { workspaceId, id: artifactId } }, select: { status: true } });
      return artifact?.status ?? null;
    },

    /**
     * Moves a draft to validated or disputed, if it still is a draft; a validation also writes what
     * search reads (its body's text, its vector rows, its memory-bank entry). Returns false when it
     * was not a draft (a concurrent reviewer, or no longer a draft).
     */
    async review(
      workspaceId: string,
      artifactId: string,
      outcome: { status: "validated"; by: string; at: Date } | { status: "disputed"; by: string; reason: string; at: Date },
    ): Promise<boolean> {
      const draft = { workspaceId, id: artifactId, status: "draft" } as const;
      if (outcome.status === "disputed") {
        const moved = await db.artifact.updateMany({
          where: draft,
          data: { status: "disputed", disputedAt: outcome.at, disputedBy: outcome.by, disputeReason: outcome.reason },
        });
        return moved.count > 0;
      }
      const stored = await db.artifact.findFirst({ where: draft, select: { content: true, summary: true, createdAt: true } });
      if (!stored) return false;
      const moved = await db.artifact.updateMany({
        where: draft,
        data: { status: "validated", validatedAt: outcome.at, validatedBy: outcome.by, bodyText: searchableBodyText(stored.content) },
      });
      if (moved.count === 0) return false;
      const { vectors, memory } = searchedRows(artifactId, stored);
      await db.artifactEmbedding.createMany({ data: vectors.map((vector) => ({ ...vector, workspaceId, artifactId })) });
      // createMany, which returns no row: Citus fails a create that returns this row (docs/decisions.md, "One schema everywhere").
      await db.memory.createMany({ data: [{ ...memory, workspaceId, artifactId }] });
      return true;
    },
  };
}

export type ArtifactRepository = ReturnType<typeof createArtifactRepository>;
