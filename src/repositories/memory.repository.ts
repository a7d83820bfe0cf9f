import type { DbTx } from "../db/database";
import { Prisma } from "../generated/prisma/client";
import type { MemoryType } from "../generated/prisma/enums";
import { newId } from "../lib/ids";
import { hybridCandidates, ownColumnVectors, type CandidateScores } from "../search/hybrid-candidates";
import type { HybridQuery } from "../search/hybrid-query";
import { createVectorIndexRepository, type VectorIndexRepository } from "./vector-index.repository";

export interface MemoryRecord {
  id: string;
  type: MemoryType;
  statement: string;
  goingForward: string | null;
  createdAt: Date;
}

export type MemoryCandidate = MemoryRecord & CandidateScores;

/** A ledger memory as an export writes it. */
export interface LedgerMemoryRecord extends MemoryRecord {
  active: boolean;
}

export interface NewMemory {
  type: MemoryType;
  statement: string;
  goingForward?: string;
  active: boolean;
  createdAt: Date;
}

const MEMORY_FIELDS = { id: true, type: true, statement: true, goingForward: true, createdAt: true } as const;

export function createMemoryRepository(db: DbTx, vectorIndexes: VectorIndexRepository = createVectorIndexRepository(db)) {
  return {
    /** Active memories of the given types, newest first (ties by id, so the order is stable). */
    listActiveOfTypes(workspaceId: string, types: MemoryType[], limit: number): Promise<MemoryRecord[]> {
      return db.memory.findMany({
        where: { workspaceId, active: true, type: { in: types } },
        select: MEMORY_FIELDS,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: limit,
      });
    },

    /** Search candidates among the workspace's active memories, with their similarity and matched words. */
    searchActiveCandidates(workspaceId: string, query: HybridQuery): Promise<MemoryCandidate[]> {
      const active = Prisma.sql`t.workspace_id = ${workspaceId} AND t.active`;
      return hybridCandidates(
        (sql) => db.$queryRaw<MemoryCandidate[]>(sql),
        {
          table: "memories",
          where: active,
          collection: { workspaceId, name: "memories", keyOwner: "workspace_id", keyOwnerId: workspaceId },
          columns: { type: "t.type::text", statement: "t.statement", goingForward: "t.going_forward", createdAt: "t.created_at" },
          vectors: ownColumnVectors("memories", active, {
            workspaceId,
            ownIndex: async () => (await vectorIndexes.ownIndexes(workspaceId)).get("memories"),
            exactDistance: vectorIndexes.exactDistance,
          }),
          matchedTerms: true,
        },
        query,
      );
    },

    /**
     * One page of the workspace's ledger memories for an export, by id, strictly after `afterId`.
     * The memory-bank entries of artifacts are not among them: an import makes them from the artifacts.
     */
    exportLedgerPage(workspaceId: string, options: { afterId?: string; take: number }): Promise<LedgerMemoryRecord[]> {
      return db.memory.findMany({
        where: { workspaceId, artifactId: null, ...(options.afterId === undefined ? {} : { id: { gt: options.afterId } }) },
        select: { id: true, type: true, statement: true, goingForward: true, active: true, createdAt: true },
        orderBy: { id: "asc" },
        take: options.take,
      });
    },

    /** The memory's place: a ledger memory, the memory-bank entry of an artifact, or none in this workspace. */
    async findOwner(workspaceId: string, memoryId: string): Promise<{ artifactId: string | null } | null> {
      return db.memory.findUnique({ where: { workspaceId_id: { workspaceId, id: memoryId } }, select: { artifactId: true } });
    },

    /** Deletes a ledger memory (never an artifact's memory-bank entry); false when there is none with this id. */
    async deleteLedger(workspaceId: string, memoryId: string): Promise<boolean> {
      const deleted = await db.memory.deleteMany({ where: { workspaceId, id: memoryId, artifactId: null } });
      return deleted.count > 0;
    },

    /** Appends ledger memories; their vectors are left pending for the embedding indexer. */
    async appendMany(workspaceId: string, memories: NewMemory[]): Promise<number> {
      const result = await db.memory.createMany({
        data: memories.map((memory) => ({ id: newId("mem"), workspaceId, ...memory })),
      });
      return result.count;
    },
  };
}

export type MemoryRepository = ReturnType<typeof createMemoryRepository>;
