import type { DbTx } from "../db/database";
import type { CreateArtifactRequest } from "../contracts/artifacts";
import { createArtifactRepository } from "../repositories/artifact.repository";

export interface ImportedArtifact extends CreateArtifactRequest {
  status?: "draft" | "validated" | "disputed";
  validatedBy?: string;
  disputeReason?: string;
  createdAt?: number;
  previousArtifactId?: string;
}

/**
 * Writes the `artifacts` section of an import document inside the caller's transaction. Imported
 * artifacts are internal (trigger `chat`): searchable once validated, absent from /feedback.
 * Returns their ids in input order.
 */
export async function importArtifacts(tx: DbTx, workspaceId: string, items: ImportedArtifact[], now: Date): Promise<string[]> {
  const rows = items.map((item) => {
    const { status = "validated", validatedBy, disputeReason, createdAt, previousArtifactId, trigger: _ignored, ...fields } = item;
    const created = createdAt === undefined ? now : new Date(createdAt);
    return {
      ...fields,
      trigger: "chat" as const,
      status,
      createdByKeyId: null,
      createdBy: "import",
      createdAt: created,
      previousArtifactId: previousArtifactId ?? null,
      ...(status === "validated" ? { validatedAt: created, validatedBy: validatedBy ?? "import" } : {}),
      ...(status === "disputed" ? { disputedAt: created, disputedBy: validatedBy ?? "import", disputeReason: disputeReason ?? null } : {}),
    };
  });
  // All in one go: the word counts are kept by triggers that run once a statement.
  return createArtifactRepository(tx).insertMany(workspaceId, rows);
}
