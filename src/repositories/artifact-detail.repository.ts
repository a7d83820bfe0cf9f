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

/**
 * ARTIFACT_SUMMARY_FIELDS but the id as SQL columns of the table on `alias`, by the names the
 * record gives them: for the statements that read them without Prisma (a fetch, a search's
 * candidates, which select the id apart).
 */
export function artifactSummaryColumns(alias: string): string {
  const t = `${alias}.`;
  return `${t}status::text AS status, ${t}"trigger"::text AS "trigger", ${t}summary, ${t}why, ${t}confidence,
  ${t}confidence_explanation AS "confidenceExplanation", ${t}recommendation, ${t}key_findings AS "keyFindings", ${t}recommendations,
  ${t}source_system AS "sourceSystem", ${t}data_sources AS "dataSources", ${t}code_executed AS "codeExecuted", ${t}created_by AS "createdBy",
  ${t}validated_at AS "validatedAt", ${t}validated_by AS "validatedBy", ${t}dispute_reason AS "disputeReason",
  ${t}previous_artifact_id AS "previousArtifactId", ${t}created_at AS "createdAt"`;
}

// Content as text, which no driver parses.
const DETAIL_COLUMNS = `a.id, ${artifactSummaryColumns("a")}, a.updated_at AS "updatedAt", a.content::text AS content`;

/**
 * The read behind a fetch, as close to the database as a read gets: one statement through the
 * driver itself (the Prisma client cost more than the statement, on both engines), by the primary key.
 */
export function createArtifactDetailRepository(sql: SqlExecutor) {
  return {
    async findValidated(workspaceId: string, artifactId: string): Promise<ArtifactDetailRecord | null> {
      const [row] = await sql.query<DetailRow>(
        `SELECT ${DETAIL_COLUMNS} FROM artifacts a WHERE a.workspace_id = $1 AND a.id = $2 AND a.status = 'validated'`,
        [workspaceId, artifactId],
      );
      if (!row) return null;
      return { ...row, confidence: Number(row.confidence), content: row.content === null ? null : new JsonText(row.content) };
    },
  };
}

export type ArtifactDetailRepository = ReturnType<typeof createArtifactDetailRepository>;
