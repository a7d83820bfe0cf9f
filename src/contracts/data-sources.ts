import { boundedString, Timestamp } from "./common";
import { INPUT_LIMITS } from "./text-limits";
import { z } from "./zod";

export const ConnectorTypeSchema = z.enum(["postgres", "mysql", "sqlserver", "clickhouse", "databricks"]);
export const DataSourceStatusSchema = z.enum(["connected", "error", "disconnected"]);

export const TableSchemaEntrySchema = z.object({
  tableName: z.string(),
  columns: z.array(z.object({ columnName: z.string(), dataType: z.string() })),
});

export const TableAnnotationSchema = z
  .object({
    tableName: z.string(),
    description: z.string(),
    useCases: z.array(z.string()),
    gotchas: z.array(z.string()).openapi({ description: "Known traps, to read before querying." }),
  })
  .openapi("TableAnnotation");

export const DataSourceItemSchema = z
  .object({
    name: z.string(),
    connectorType: ConnectorTypeSchema,
    status: DataSourceStatusSchema,
    schema: z.array(TableSchemaEntrySchema).optional(),
    tableAnnotations: z.array(TableAnnotationSchema).optional(),
    createdAt: Timestamp,
  })
  .openapi("DataSourceItem");

export const DataSourcesResponseSchema = z
  .object({ items: z.array(DataSourceItemSchema) })
  .openapi("DataSourcesResponse");

export const QueryPatternSchema = z
  .object({
    question: z.string().openapi({ description: "The intent the SQL answered." }),
    sql: z.string(),
    resultSummary: z.string().optional(),
    successCount: z.number(),
    lastUsedAt: Timestamp.optional(),
  })
  .openapi("QueryPattern");

export const ErrorLearningSchema = z
  .object({
    failedSql: z.string(),
    errorMessage: z.string(),
    learning: z.string().openapi({ description: "What to avoid or do instead." }),
    createdAt: Timestamp,
  })
  .openapi("ErrorLearning");

export const QueryIntelligenceResponseSchema = z
  .object({ patterns: z.array(QueryPatternSchema), errorLearnings: z.array(ErrorLearningSchema) })
  .openapi("QueryIntelligenceResponse");

export const DataSourceNameParamsSchema = z.object({
  name: boundedString(INPUT_LIMITS.lookupName).openapi({
    description: `The data source name, URL-encoded (at most ${INPUT_LIMITS.lookupName} characters).`,
    example: "finance lake",
  }),
});

export const QueryIntelligenceQuerySchema = z.object({
  question: boundedString(INPUT_LIMITS.searchText).openapi({
    description: `What the caller wants to compute: 1 to ${INPUT_LIMITS.searchText} characters.`,
    example: "ARR by fiscal quarter",
  }),
});
