import type { SqlExecutor } from "../db/migrations";
import { JsonText } from "../lib/json-text";
import type { ArtifactRecord } from "./artifact.repository";

/**
 * A validated artifact as a fetch answers it: its content as the JSON text stored (the `json`
 * column keeps the text as written), and when it was last written, from which its entity tag is
 * made (a validated artifact never changes: review moves drafts only).
 */
export type ArtifactDetailRecord = Omit<ArtifactRecord, "content"> & { content: JsonText | null; updatedAt: Date };

interface DetailRow extends Omit<ArtifactDetailRecord, "content" | "confidence"> {
  content: string | null;
  confidence: number | string;
}

// The columns by the names the record gives them; content as text, which no driver parses.
const DETAIL_COLUMNS = `id, status::text AS status, "trigger"::text AS "trigger", summary, why, confidence,
  confidence_explanation AS "confidenceExplanation", recommendation, key_findings AS "keyFindings", recommendations,
  source_system AS "sourceSystem", data_sources AS "dataSources", code_executed AS "codeExecuted", created_by AS "createdBy",
  validated_at AS "validatedAt", validated_by AS "validatedBy", dispute_reason AS "disputeReason",
  previous_artifact_id AS "previousArtifactId", created_at AS "createdAt", updated_at AS "updatedAt", content::text AS content`;

/**
 * The read behind a fetch, as close to the database as a read gets: one statement through the
 * driver itself (the Prisma client cost more than the statement, on both engines), by the primary key.
 */
export function createArtifactDetailRepository(sql: SqlExecutor) {
  return {
    async findValidated(workspaceId: string, artifactId: string): Promise<ArtifactDetailRecord | null> {
      const [row] = await sql.query<DetailRow>(
        `SELECT ${DETAIL_COLUMNS} FROM artifacts WHERE workspace_id = $1 AND id = $2 AND status = 'validated'`,
        [workspaceId, artifactId],
      );
      if (!row) return null;
      return { ...row, confidence: Number(row.confidence), content: row.content === null ? null : new JsonText(row.content) };
    },
  };
}

export type ArtifactDetailRepository = ReturnType<typeof createArtifactDetailRepository>;
