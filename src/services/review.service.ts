import type { ArtifactStatus } from "../generated/prisma/client";
import { conflict, notFound } from "../http/api-error";
import type { Clock } from "../lib/clock";
import type { ArtifactRecord, ArtifactRepository, ArtifactSummaryRecord } from "../repositories/artifact.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";

export interface ReviewServiceDeps {
  artifacts: Pick<ArtifactRepository, "listForReview" | "findStatus">;
  workspaces: Pick<WorkspaceRepository, "findById">;
  /** Runs the review write in one transaction with a repository bound to it. */
  inTransaction<T>(fn: (artifacts: Pick<ArtifactRepository, "review">) => Promise<T>): Promise<T>;
  clock: Clock;
}

/** The product side of the loop: humans validate or dispute drafts. */
export function createReviewService({ artifacts, workspaces, inTransaction, clock }: ReviewServiceDeps) {
  async function decide(
    artifactId: string,
    outcome: { status: "validated"; by: string } | { status: "disputed"; by: string; reason: string },
  ): Promise<{ artifactId: string; status: "validated" | "disputed" }> {
    const moved = await inTransaction((tx) => tx.review(artifactId, { ...outcome, at: clock.now() }));
    if (!moved) {
      const current = await artifacts.findStatus(artifactId);
      if (!current) throw notFound(`Artifact ${artifactId} not found`);
      throw conflict(`Artifact ${artifactId} is ${current.status}; only a draft can be validated or disputed`);
    }
    return { artifactId, status: outcome.status };
  }

  return {
    async queue(workspaceId: string, status?: ArtifactStatus): Promise<ArtifactSummaryRecord[]> {
      if (!(await workspaces.findById(workspaceId))) throw notFound(`Workspace ${workspaceId} not found`);
      return artifacts.listForReview(workspaceId, status);
    },
    validate: (artifactId: string, by: string) => decide(artifactId, { status: "validated", by }),
    dispute: (artifactId: string, by: string, reason: string) => decide(artifactId, { status: "disputed", by, reason }),
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
