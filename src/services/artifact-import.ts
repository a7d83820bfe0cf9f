import type { CreateArtifactRequest } from "../contracts/artifacts";
import type { DbTx } from "../db/database";
import type { Prisma } from "../generated/prisma/client";
import { newId } from "../lib/ids";

export interface ImportedArtifact extends CreateArtifactRequest {
  status?: "draft" | "validated" | "disputed";
  validatedBy?: string;
  disputeReason?: string;
  /** Milliseconds since the epoch; the import's time when absent. */
  createdAt?: number;
  previousArtifactId?: string;
}

/**
 * Writes imported artifacts inside the import's transaction and returns their ids in input order.
 * Imported artifacts are internal (trigger `chat`), validated unless the document says otherwise,
 * searchable while validated, and retained in the memory bank as a `finding` that is active only
 * while the artifact is validated.
 */
export async function importArtifacts(tx: DbTx, workspaceId: string, artifacts: ImportedArtifact[], now: Date): Promise<string[]> {
  const ids: string[] = [];
  for (const artifact of artifacts) {
    const id = newId("art");
    const createdAt = artifact.createdAt === undefined ? now : new Date(artifact.createdAt);
    const status = artifact.status ?? "validated";
    const validated = status === "validated";
    const disputed = status === "disputed";
    await tx.artifact.create({
      data: {
        id,
        workspaceId,
        status,
        trigger: "chat",
        summary: artifact.summary,
        why: artifact.why,
        confidence: artifact.confidence,
        confidenceExplanation: artifact.confidenceExplanation,
        content: (artifact.content ?? undefined) as Prisma.InputJsonValue | undefined,
        recommendation: artifact.recommendation ?? undefined,
        keyFindings: artifact.keyFindings ?? undefined,
        recommendations: artifact.recommendations ?? undefined,
        sourceSystem: artifact.sourceSystem ?? undefined,
        dataSources: artifact.dataSources ?? undefined,
        codeExecuted: artifact.codeExecuted ?? undefined,
        createdBy: "import",
        validatedAt: validated ? createdAt : undefined,
        validatedBy: validated ? (artifact.validatedBy ?? "import") : undefined,
        disputedAt: disputed ? createdAt : undefined,
        disputedBy: disputed ? "import" : undefined,
        disputeReason: disputed ? artifact.disputeReason : undefined,
        previousArtifactId: artifact.previousArtifactId,
        createdAt,
      },
    });
    await tx.artifactEmbedding.create({ data: { artifactId: id, workspaceId, searchable: validated } });
    await tx.memory.create({
      data: { id: newId("mem"), workspaceId, type: "finding", statement: artifact.summary, artifactId: id, active: validated, createdAt },
    });
    ids.push(id);
  }
  return ids;
}
