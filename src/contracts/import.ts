import { CreateArtifactRequestSchema } from "./artifacts";
import { NonEmptyString, StorableTimestamp, isStorableTime } from "./common";
import { ConnectorTypeSchema, DataSourceStatusSchema, TableAnnotationSchema, TableSchemaEntrySchema } from "./data-sources";
import { ArtifactStatusSchema } from "./feedback";
import { reportsEveryIssue } from "./issues";
import { MemoryTypeSchema } from "./memories";
import { DataSourceNameSchema, SkillFilePathSchema, SkillNameSchema } from "./names";
import { SkillFileKindSchema, SkillItemSchema } from "./skills";
import { isUtf8Text } from "../lib/utf8-text";
import { TEXT_LIMITS } from "./text-limits";
import { z } from "./zod";

// The import document of DESIGN.md: every section optional; data sources, skills and directives
// are upserted by name, memories and artifacts appended.

/** Milliseconds since the epoch, as on the wire, or an ISO 8601 date-time, which humans write more easily. */
const TIMESTAMP_PROBLEM = "must be milliseconds since the Unix epoch or an ISO 8601 date-time";
export const ImportTimestampSchema = z
  .union([StorableTimestamp, z.iso.datetime({ offset: true, error: TIMESTAMP_PROBLEM }).refine((text) => isStorableTime(Date.parse(text)), {
      error: "must be a time from year 1 to year 9999",
    })], { error: TIMESTAMP_PROBLEM })
  .openapi({ description: "Milliseconds since the Unix epoch, or an ISO 8601 date-time. Omitted: the time of the import." });

/** A non-negative integer that fits the integer columns it is stored in. */
const StoredInt = z.number().int().min(0).max(2_147_483_647);

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const TEXT_KINDS = new Set(["markdown", "script", "text"]);

export const ImportSkillFileSchema = z
  .object({
    path: SkillFilePathSchema,
    kind: SkillFileKindSchema.optional().openapi({ description: "Inferred from the extension and the bytes when omitted." }),
    content: z.string().optional().openapi({ description: "The file as UTF-8 text." }),
    contentBase64: z.string().regex(BASE64, { error: "must be base64" }).optional().openapi({ description: "The file's bytes in base64." }),
  })
  .superRefine((file, ctx) => {
    if ((file.content === undefined) === (file.contentBase64 === undefined)) {
      ctx.addIssue({ code: "custom", path: ["content"], message: "give exactly one of content and contentBase64" });
    } else if (file.kind && TEXT_KINDS.has(file.kind) && file.contentBase64 !== undefined && !isUtf8Text(Buffer.from(file.contentBase64, "base64"))) {
      ctx.addIssue({ code: "custom", path: ["kind"], message: `is ${file.kind}, but the bytes are not UTF-8 text` });
    }
  });

export const ImportSkillSchema = z
  .object({
    name: SkillNameSchema,
    description: z.string(),
    version: StoredInt.min(1).default(1),
    source: SkillItemSchema.shape.source,
    official: z.boolean().default(false),
    enabled: z.boolean().default(true),
    allowedTools: z.array(NonEmptyString).optional(),
    compatibility: z.string().optional(),
    files: z.array(ImportSkillFileSchema),
  })
  .superRefine((skill, ctx) => rejectDuplicates(skill.files, (file) => file.path, ["files"], "path", ctx));

export const ImportQueryPatternSchema = z.object({
  question: NonEmptyString.max(TEXT_LIMITS.question),
  sql: NonEmptyString.max(TEXT_LIMITS.sql),
  resultSummary: z.string().max(TEXT_LIMITS.resultSummary).optional(),
  successCount: StoredInt,
  lastUsedAt: ImportTimestampSchema.optional(),
});

export const ImportErrorLearningSchema = z.object({
  failedSql: NonEmptyString.max(TEXT_LIMITS.sql),
  errorMessage: NonEmptyString.max(TEXT_LIMITS.errorMessage),
  learning: NonEmptyString.max(TEXT_LIMITS.learning),
  createdAt: ImportTimestampSchema.optional(),
});

export const ImportDataSourceSchema = z.object({
  name: DataSourceNameSchema,
  connectorType: ConnectorTypeSchema,
  status: DataSourceStatusSchema,
  schema: z.array(TableSchemaEntrySchema).optional(),
  tableAnnotations: z.array(TableAnnotationSchema).optional(),
  createdAt: ImportTimestampSchema.optional(),
  queryPatterns: z.array(ImportQueryPatternSchema).optional(),
  errorLearnings: z.array(ImportErrorLearningSchema).optional(),
});

export const ImportMemorySchema = z.object({
  type: MemoryTypeSchema,
  statement: NonEmptyString.max(TEXT_LIMITS.memoryText),
  goingForward: z.string().max(TEXT_LIMITS.memoryText).optional(),
  active: z.boolean().default(true),
  createdAt: ImportTimestampSchema.optional(),
});

export const ImportArtifactSchema = CreateArtifactRequestSchema.extend({
  status: ArtifactStatusSchema.default("validated"),
  validatedBy: NonEmptyString.optional().openapi({ description: "Who validated it; `import` when omitted." }),
  validatedAt: ImportTimestampSchema.optional().openapi({ description: "When it was validated; `createdAt` when omitted." }),
  disputeReason: NonEmptyString.optional(),
  disputedBy: NonEmptyString.optional().openapi({ description: "Who disputed it; `validatedBy`, or `import`, when omitted." }),
  disputedAt: ImportTimestampSchema.optional().openapi({ description: "When it was disputed; `createdAt` when omitted." }),
  pushedBy: NonEmptyString.optional().openapi({
    description:
      "The name of the API key that pushed it, for an artifact an agent pushed (what a workspace export writes): it is then recorded as an external push with this `createdBy` and listed in `/feedback` (audience `workspace`). Omitted: an internal artifact, created by `import`.",
  }),
  createdAt: ImportTimestampSchema.optional(),
  previousArtifactId: NonEmptyString.optional(),
}).superRefine((artifact, ctx) => {
  if (artifact.status === "disputed" && artifact.disputeReason === undefined) {
    ctx.addIssue({ code: "custom", path: ["disputeReason"], message: "is required when status is disputed" });
  }
});

export const ImportDocumentSchema = z
  .object({
    context: z.string().nullable().optional().openapi({ description: "Replaces the workspace context; null clears it." }),
    directives: z.array(z.object({ name: NonEmptyString, content: NonEmptyString })).optional(),
    memories: z.array(ImportMemorySchema).optional(),
    dataSources: z.array(ImportDataSourceSchema).optional(),
    skills: z.array(ImportSkillSchema).optional(),
    artifacts: z.array(ImportArtifactSchema).optional(),
  })
  .superRefine((document, ctx) => {
    for (const section of ["directives", "dataSources", "skills"] as const) {
      const entries: Array<{ name: string }> = document[section] ?? [];
      rejectDuplicates(entries, (entry) => entry.name, [section], "name", ctx);
    }
  })
  .openapi("AdminImportDocument");

// Refused as a whole, an import names every problem at once, however many entries it holds.
reportsEveryIssue.add(ImportDocumentSchema, { max: 20 });

export type ImportDocument = z.infer<typeof ImportDocumentSchema>;
export type ImportDataSource = z.infer<typeof ImportDataSourceSchema>;
export type ImportSkill = z.infer<typeof ImportSkillSchema>;

const ImportCountsSchema = z.object({
  context: z.number().int().openapi({ description: "1 when the document set the workspace context." }),
  directives: z.number().int(),
  memories: z.number().int(),
  dataSources: z.number().int(),
  queryPatterns: z.number().int(),
  errorLearnings: z.number().int(),
  skills: z.number().int(),
  skillFiles: z.number().int(),
  artifacts: z.number().int(),
});

export type ImportCounts = z.infer<typeof ImportCountsSchema>;

export const ImportResultSchema = z
  .object({
    imported: ImportCountsSchema,
    artifactIds: z.array(z.string()).openapi({ description: "Ids of the imported artifacts, in input order." }),
  })
  .openapi("AdminImportResult");

/** Upserts by name would silently keep the last of two entries with one name: refuse the second. */
function rejectDuplicates<T>(
  entries: T[],
  keyOf: (entry: T) => string,
  path: Array<string | number>,
  field: string,
  ctx: z.RefinementCtx,
): void {
  const seen = new Map<string, number>();
  entries.forEach((entry, index) => {
    const first = seen.get(keyOf(entry));
    if (first === undefined) seen.set(keyOf(entry), index);
    else ctx.addIssue({ code: "custom", path: [...path, index, field], message: `duplicates the ${field} of entry ${first}` });
  });
}
