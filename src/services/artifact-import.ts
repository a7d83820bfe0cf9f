import type { DbTx } from "../db/database";
import type { CreateArtifactRequest } from "../contracts/artifacts";
import { createArtifactRepository } from "../repositories/artifact.repository";

export interface ImportedArtifact extends CreateArtifactRequest {
  status?: "draft" | "validated" | "disputed";
  validatedBy?: string;
  validatedAt?: number;
  disputeReason?: string;
  disputedBy?: string;
  disputedAt?: number;
  pushedBy?: string;
  createdAt?: number;
  previousArtifactId?: string;
}

/**
 * Writes the `artifacts` section of an import document inside the caller's transaction. Imported
 * artifacts are internal (trigger `chat`): searchable once validated, absent from /feedback;
 * those with `pushedBy` (a workspace export's pushes) are external pushes of that key name, with
 * no key (keys are not exported). Returns their ids in input order.
 */
export async function importArtifacts(tx: DbTx, workspaceId: string, items: ImportedArtifact[], now: Date): Promise<string[]> {
  const rows = items.map((item) => {
    const { status = "validated", validatedBy, validatedAt, disputeReason, disputedBy, disputedAt, pushedBy, createdAt, previousArtifactId, trigger: _ignored, ...fields } =
      item;
    const created = createdAt === undefined ? now : new Date(createdAt);
    return {
      ...fields,
      trigger: pushedBy === undefined ? ("chat" as const) : ("external" as const),
      status,
      createdByKeyId: null,
      createdBy: pushedBy ?? "import",
      createdAt: created,
      previousArtifactId: previousArtifactId ?? null,
      ...(status === "validated" ? { validatedAt: validatedAt === undefined ? created : new Date(validatedAt), validatedBy: validatedBy ?? "import" } : {}),
      ...(status === "disputed"
        ? {
            disputedAt: disputedAt === undefined ? created : new Date(disputedAt),
            disputedBy: disputedBy ?? validatedBy ?? "import",
            disputeReason: disputeReason ?? null,
          }
        : {}),
    };
  });
  // All in one go: the word counts are kept by triggers that run once a statement.
  return createArtifactRepository(tx).insertMany(workspaceId, rows);
}
