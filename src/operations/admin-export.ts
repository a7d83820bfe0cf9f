import type { z } from "zod";
import { WorkspaceIdParamsSchema } from "../contracts/admin";
import {
  ImportArtifactSchema,
  ImportDataSourceSchema,
  ImportDocumentSchema,
  ImportMemorySchema,
  ImportSkillSchema,
} from "../contracts/import";
import { describeIssueAt, formatPath } from "../contracts/issues";
import { conflict } from "../domain/errors";
import { jsonObjectText, mapItems } from "../lib/json-stream";
import { isUtf8Text } from "../lib/utf8-text";
import type { ExportedArtifactRecord, ExportedDataSource, ExportedSkill, LedgerMemoryRecord, WorkspaceExport } from "../services/export.service";
import { NO_SUCH_WORKSPACE } from "./admin-workspaces";
import { defineOperation, JsonStream } from "./operation";

// Wire forms of the import document's entries. Omitted rather than null where the import takes no null.
const present = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);
const arrayOrUndefined = <T>(value: unknown): T[] | undefined => (Array.isArray(value) ? (value as T[]) : undefined);

const toMemory = (memory: LedgerMemoryRecord) => ({
  type: memory.type,
  statement: memory.statement,
  goingForward: present(memory.goingForward),
  active: memory.active,
  createdAt: memory.createdAt.getTime(),
});

const toDataSource = (source: ExportedDataSource) => ({
  name: source.name,
  connectorType: source.connectorType,
  status: source.status,
  schema: present(source.schema),
  tableAnnotations: present(source.tableAnnotations),
  createdAt: source.createdAt.getTime(),
  queryPatterns: source.patterns.map((pattern) => ({
    question: pattern.question,
    sql: pattern.sql,
    resultSummary: present(pattern.resultSummary),
    successCount: pattern.successCount,
    lastUsedAt: pattern.lastUsedAt?.getTime(),
  })),
  errorLearnings: source.learnings.map((learning) => ({
    failedSql: learning.failedSql,
    errorMessage: learning.errorMessage,
    learning: learning.learning,
    createdAt: learning.createdAt.getTime(),
  })),
});

type SkillFields = Omit<ExportedSkill, "files">;
const toSkill = (skill: SkillFields, files: unknown[]) => ({
  name: skill.name,
  description: skill.description,
  version: skill.version,
  source: skill.source,
  official: skill.official,
  enabled: skill.enabled,
  allowedTools: skill.allowedTools,
  compatibility: present(skill.compatibility),
  files,
});

/** Text inline, as the import document writes it by hand; anything that is not UTF-8 text in base64. */
const toSkillFile = (file: ExportedSkill["files"][number]) =>
  file.kind !== "binary" && isUtf8Text(file.bytes)
    ? { path: file.path, kind: file.kind, content: Buffer.from(file.bytes).toString("utf8") }
    : { path: file.path, kind: file.kind, contentBase64: Buffer.from(file.bytes).toString("base64") };

/** An artifact with its review and its origin: a push keeps its key's name, so that /feedback reads the same after an import. */
export function toExportedArtifact(artifact: ExportedArtifactRecord) {
  return {
    summary: artifact.summary,
    why: artifact.why,
    confidence: artifact.confidence,
    confidenceExplanation: artifact.confidenceExplanation,
    content: present(artifact.content as string | Record<string, unknown> | null),
    recommendation: present(artifact.recommendation),
    keyFindings: arrayOrUndefined<string>(artifact.keyFindings),
    recommendations: arrayOrUndefined(artifact.recommendations),
    sourceSystem: present(artifact.sourceSystem),
    dataSources: arrayOrUndefined(artifact.dataSources),
    codeExecuted: arrayOrUndefined(artifact.codeExecuted),
    status: artifact.status,
    pushedBy: artifact.trigger === "external" ? artifact.createdBy : undefined,
    createdAt: artifact.createdAt.getTime(),
    previousArtifactId: present(artifact.previousArtifactId),
    ...(artifact.status === "validated" ? { validatedBy: present(artifact.validatedBy), validatedAt: artifact.validatedAt?.getTime() } : {}),
    ...(artifact.status === "disputed"
      ? { disputedBy: present(artifact.disputedBy), disputedAt: artifact.disputedAt?.getTime(), disputeReason: present(artifact.disputeReason) }
      : {}),
  };
}

/**
 * An entry through the import document's own schema, so that what is written is what an import
 * takes. An entry it refuses (a name stored before the import's rules, say) stops the export,
 * naming the entry and the rule; the document is written in full before it is sent, so that is
 * always a clean refusal.
 */
function checked<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw conflict(`Cannot export ${describeIssueAt(issue, formatPath(where, issue.path))}; the import would refuse it (fix it, or delete it, and export again)`);
}

/** The workspace as the JSON text of an import document, written while it is read. */
export function exportDocumentText(exported: WorkspaceExport): AsyncIterable<string> {
  // The sections held in memory are checked before the large ones are read.
  const directives = exported.directives.map(({ name, content }) => ({ name, content }));
  const dataSources = exported.dataSources.map((source, index) => checked(ImportDataSourceSchema, toDataSource(source), `dataSources[${index}]`));
  exported.skills.forEach((skill, index) => checked(ImportSkillSchema, toSkill(skill, []), `skills[${index}]`));
  let skillIndex = 0;
  let memoryIndex = 0;
  let artifactIndex = 0;
  return jsonObjectText([
    { key: "context", value: exported.workspace.context },
    { key: "directives", items: (async function* () { yield* directives; })() },
    { key: "dataSources", items: (async function* () { yield* dataSources; })() },
    { key: "skills", items: mapItems(exported.skillsWithBytes(), (skill) => checked(ImportSkillSchema, toSkill(skill, skill.files.map(toSkillFile)), `skills[${skillIndex++}]`)) },
    { key: "memories", items: mapItems(exported.memories(), (memory) => checked(ImportMemorySchema, toMemory(memory), `memories[${memoryIndex++}]`)) },
    { key: "artifacts", items: mapItems(exported.artifacts(), (artifact) => checked(ImportArtifactSchema, toExportedArtifact(artifact), `artifacts[${artifactIndex++}]`)) },
  ]);
}

export const adminExportWorkspace = defineOperation({
  name: "adminExportWorkspace",
  summary: "Export a workspace",
  description:
    "The workspace as an import document: importing it into another workspace reproduces it. Context, directives, data sources with their query patterns and error learnings, skills with every file (text as `content`, anything else as `contentBase64`), ledger memories, and artifacts with their status, review and timestamps (an agent's push keeps its key's name as `pushedBy`). Not exported: API keys, reviewers, console sessions, OAuth grants, vectors (the indexer makes them again), idempotency records, a data source's connection reference, and the workspace's name. The document is the workspace at one moment: it is read in one read-only snapshot of the database and written in full to a temporary file (never held in memory) before the first byte is sent, with its `Content-Length`, so writes or a deletion while the client downloads change nothing in it, and a refusal is always a clean error answer.",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema,
  output: ImportDocumentSchema,
  run: ({ id }, { services }) => services.exports.snapshot(id, exportDocumentText),
  toWire: (document) => new JsonStream(document),
  errors: {
    not_found: NO_SUCH_WORKSPACE,
    conflict: {
      description: "An entry that the import would refuse (say, a name stored before the import's rules): fix or delete it, then export again.",
      example: 'Cannot export skills[0].name: must be lowercase letters, digits and single hyphens, 1 to 64 characters (e.g. churn-analysis); the import would refuse it (fix it, or delete it, and export again)',
    },
    dependency_failed: { description: "File storage unreachable while reading skill files." },
  },
});
