import type { ArtifactStatus } from "../generated/prisma/client";
import { notFound, conflict } from "../domain/errors";
import type { Clock } from "../lib/clock";
import type { ArtifactRecord, ArtifactRepository, QueueEntry } from "../repositories/artifact.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";

export interface ReviewServiceDeps {
  artifacts: Pick<ArtifactRepository, "listQueue" | "workspaceOf" | "findStatus" | "countByStatus" | "findInWorkspaces">;
  workspaces: Pick<WorkspaceRepository, "findById">;
  /** Runs the review write in one transaction with a repository bound to it. */
  inTransaction<T>(fn: (artifacts: Pick<ArtifactRepository, "review">) => Promise<T>): Promise<T>;
  /** A validation writes the artifact's vector rows and its body's chunks, which the indexer has yet to embed. */
  wakeIndexer(): void;
  clock: Clock;
}

/** The product side of the loop: humans validate or dispute drafts. */
export function createReviewService({ artifacts, workspaces, inTransaction, wakeIndexer, clock }: ReviewServiceDeps) {
  /** What is missing when an artifact is not found in a workspace: the artifact, or the workspace itself. */
  async function notFoundIn(workspaceId: string, artifactId: string) {
    return (await workspaces.findById(workspaceId)) ? notFound(`Artifact ${artifactId} not found`) : notFound(`Workspace ${workspaceId} not found`);
  }

  /**
   * Every review names the workspace it acts in, and its statements name it (docs/deployment.md §6):
   * an artifact of another workspace is not found there, exactly as an unknown one.
   */
  async function decide(
    workspaceId: string,
    artifactId: string,
    outcome: { status: "validated"; by: string } | { status: "disputed"; by: string; reason: string },
  ): Promise<{ artifactId: string; status: "validated" | "disputed" }> {
    const moved = await inTransaction((tx) => tx.review(workspaceId, artifactId, { ...outcome, at: clock.now() }));
    if (!moved) {
      const current = await artifacts.findStatus(workspaceId, artifactId);
      if (!current) throw await notFoundIn(workspaceId, artifactId);
      throw conflict(`Artifact ${artifactId} is ${current}; only a draft can be validated or disputed`);
    }
    if (outcome.status === "validated") wakeIndexer();
    return { artifactId, status: outcome.status };
  }

  return {
    /**
     * The review queue, newest first and without bodies: at most `limit` entries, optionally of one
     * status and one pushing key. The admin API's list and the console's queue both read it.
     */
    async queue(workspaceId: string, options: { status?: ArtifactStatus; pushedByKeyId?: string; limit: number }): Promise<QueueEntry[]> {
      const entries = await artifacts.listQueue(workspaceId, { status: options.status, pushedByKeyId: options.pushedByKeyId, take: options.limit });
      // Only an empty page can hide an unknown workspace: an entry proves it exists.
      if (entries.length === 0 && !(await workspaces.findById(workspaceId))) throw notFound(`Workspace ${workspaceId} not found`);
      return entries;
    },
    countByStatus: (workspaceId: string, pushedByKeyId?: string) => artifacts.countByStatus(workspaceId, pushedByKeyId),
    /** An artifact in any status from one of these workspaces; the same 404 for unknown and foreign ids. */
    async findIn(workspaceIds: string[], artifactId: string): Promise<ArtifactRecord & { workspaceId: string }> {
      const record = await artifacts.findInWorkspaces(workspaceIds, artifactId);
      if (!record) throw notFound(`Artifact ${artifactId} not found`);
      return record;
    },
    /** The workspace of an artifact named by id alone, for the admin API's deprecated paths that name no workspace. */
    async workspaceOf(artifactId: string): Promise<string> {
      const owner = await artifacts.workspaceOf(artifactId);
      if (owner === null) throw notFound(`Artifact ${artifactId} not found`);
      return owner;
    },
    validate: (workspaceId: string, artifactId: string, by: string) => decide(workspaceId, artifactId, { status: "validated", by }),
    dispute: (workspaceId: string, artifactId: string, by: string, reason: string) =>
      decide(workspaceId, artifactId, { status: "disputed", by, reason }),
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;

/** The records this service answers with, for adapters, which never import a repository. */
export type { QueueEntry };
