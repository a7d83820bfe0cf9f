import { isRecord } from "../lib/is-record";
import { NonEmptyString, Timestamp, boundedString, integerQueryParam, numberFromDecimalText, timestampQueryParam } from "./common";
import { INPUT_LIMITS, TEXT_LIMITS } from "./text-limits";
import { z } from "./zod";

export const ArtifactDataSourceSchema = z
  .object({
    type: z.enum(["file", "database", "external"]),
    name: z.string().max(TEXT_LIMITS.dataSourceField),
    id: z.string().max(TEXT_LIMITS.dataSourceField).optional(),
  })
  .openapi("ArtifactDataSource");

export const ArtifactRecommendationSchema = z
  .object({
    text: z.string(),
    type: z.enum(["recommendation", "warning", "info"]),
  })
  .openapi("ArtifactRecommendation");

export const ArtifactCodeExecutedSchema = z
  .object({
    language: z.string(),
    code: z.string(),
    output: z.string().optional(),
    timestamp: z.number().optional(),
    title: z.string().optional(),
    toolName: z.string().optional(),
  })
  .openapi("ArtifactCodeExecuted");

/**
 * Artifact body: stored as submitted, not validated beyond being a string or a JSON object. The
 * object is passed through as parsed (not copied key by key), so a `__proto__` key is kept.
 */
export const ArtifactContentSchema = z
  .union([z.string(), z.custom<Record<string, unknown>>(isRecord).openapi({ type: "object", additionalProperties: true })], {
    error: "must be a string or an object",
  })
  .openapi({
    description:
      "Artifact body: a string, or the element tree `{root, elements}` of the content format. Stored as submitted.",
  });

export const CreateArtifactRequestSchema = z
  .object({
    summary: z.string().max(TEXT_LIMITS.summary).openapi({ description: "One-line headline." }),
    why: z.string().max(TEXT_LIMITS.why).openapi({ description: "Why the analysis matters." }),
    confidence: numberFromDecimalText(z.number().min(0).max(1)).openapi({
      type: "number",
      minimum: 0,
      maximum: 1,
      description: "From 0 to 1 inclusive. A plain decimal string such as \"0.75\" is accepted and coerced.",
    }),
    confidenceExplanation: z.string(),
    content: ArtifactContentSchema.nullable().optional(),
    recommendation: z.string().max(TEXT_LIMITS.recommendation).nullable().optional().openapi({ description: "Legacy single recommendation." }),
    keyFindings: z.array(z.string().max(TEXT_LIMITS.keyFinding)).max(TEXT_LIMITS.keyFindings).nullable().optional(),
    recommendations: z.array(ArtifactRecommendationSchema).nullable().optional(),
    sourceSystem: z.string().nullable().optional(),
    dataSources: z.array(ArtifactDataSourceSchema).max(TEXT_LIMITS.dataSources).nullable().optional(),
    codeExecuted: z.array(ArtifactCodeExecutedSchema).nullable().optional(),
    trigger: z.string().optional().openapi({ description: "Accepted and ignored: pushes are recorded as `external`." }),
  })
  .openapi("CreateArtifactRequest");

export type CreateArtifactRequest = z.infer<typeof CreateArtifactRequestSchema>;

export const CreateArtifactResponseSchema = z
  .object({
    artifactId: z.string(),
    status: z.literal("draft"),
  })
  .openapi("CreateArtifactResponse");

/** The fields an artifact shows in both a search result and its detail. */
const ArtifactShownFields = {
  id: z.string(),
  summary: z.string(),
  why: z.string(),
  recommendation: z.string().optional(),
  confidence: z.number(),
  keyFindings: z.array(z.string()).optional(),
  dataSources: z.array(ArtifactDataSourceSchema),
  createdAt: Timestamp,
  validatedAt: Timestamp.optional(),
};

export const ArtifactSummarySchema = z
  .object({
    ...ArtifactShownFields,
    score: z.number().min(0).max(1).openapi({ description: "Relevance to the query, 0 to 1, higher is better." }),
  })
  .openapi("ArtifactSummary");

export const SearchArtifactsResponseSchema = z
  .object({ results: z.array(ArtifactSummarySchema) })
  .openapi("SearchArtifactsResponse");

export const ArtifactDetailSchema = z
  .object({
    ...ArtifactShownFields,
    confidenceExplanation: z.string(),
    content: z.unknown().optional().openapi({
      description:
        "Body, cut to 20,000 characters. Structured content whose JSON text is longer is returned as the first 20,000 characters of that text.",
    }),
    contentTruncated: z.boolean(),
    recommendations: z.array(ArtifactRecommendationSchema).optional(),
    codeExecuted: z.array(ArtifactCodeExecutedSchema).optional(),
    sourceSystem: z.string().optional(),
    previousArtifactId: z.string().optional(),
  })
  .openapi("ArtifactDetail");

/** The time bounds of a search, each pair of lower and upper bound on one timestamp of the artifact. */
const SEARCH_TIME_BOUNDS = [
  ["createdAfter", "createdBefore"],
  ["validatedAfter", "validatedBefore"],
] as const;

const confidenceProblem = "must be a number from 0 to 1";

/**
 * Search, and its optional filters. A filter narrows the validated artifacts searched before they
 * are ranked (src/search/artifact-filters.ts), so `limit` still means the best matching ones; an
 * artifact scores the same with or without a filter. Bounds are inclusive, in the unit of the
 * artifact's own timestamps; several filters must all hold.
 */
export const SearchArtifactsQuerySchema = z
  .object({
    query: boundedString(INPUT_LIMITS.searchText).openapi({
      description: `Natural-language text, 1 to ${INPUT_LIMITS.searchText} characters.`,
      example: "big clients cancelling more",
    }),
    limit: integerQueryParam({ min: 1, max: 20, default: 10, description: "How many results, 1 to 20." }),
    createdAfter: timestampQueryParam(
      "Only artifacts created at or after this time (inclusive): milliseconds since the Unix epoch (UTC), the unit of `createdAt`.",
    ),
    createdBefore: timestampQueryParam("Only artifacts created at or before this time (inclusive), in milliseconds since the Unix epoch (UTC)."),
    validatedAfter: timestampQueryParam(
      "Only artifacts validated at or after this time (inclusive): milliseconds since the Unix epoch (UTC), the unit of `validatedAt`.",
    ),
    validatedBefore: timestampQueryParam("Only artifacts validated at or before this time (inclusive), in milliseconds since the Unix epoch (UTC)."),
    dataSource: z
      .string()
      .min(1, { error: `must be a data source name, 1 to ${TEXT_LIMITS.dataSourceField} characters` })
      .max(TEXT_LIMITS.dataSourceField, { error: `must be a data source name, 1 to ${TEXT_LIMITS.dataSourceField} characters` })
      .optional()
      .openapi({
        description:
          "Only artifacts one of whose `dataSources` has exactly this `name` (case and spaces as written). A name no artifact of the workspace cites returns no results, not an error.",
        example: "warehouse",
      }),
    minConfidence: numberFromDecimalText(
      z.number({ error: confidenceProblem }).min(0, { error: confidenceProblem }).max(1, { error: confidenceProblem }),
    )
      .optional()
      .openapi({ type: "number", minimum: 0, maximum: 1, description: "Only artifacts whose `confidence` is at least this (inclusive), 0 to 1.", example: 0.7 }),
  })
  .superRefine((input, ctx) => {
    for (const [after, before] of SEARCH_TIME_BOUNDS) {
      const from = input[after];
      const to = input[before];
      if (typeof from === "number" && typeof to === "number" && from > to) {
        ctx.addIssue({ code: "custom", path: [after], message: `must not be later than ${before} (${from} > ${to}); both bounds are inclusive` });
      }
    }
  });

export type SearchArtifactsQuery = z.output<typeof SearchArtifactsQuerySchema>;

export const ArtifactIdParamsSchema = z.object({
  id: NonEmptyString.openapi({ description: "The artifact id.", example: "art_7Hc2Wq9LmB4xN1tRz6Ke0p" }),
});

export const IdempotencyHeadersSchema = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(255)
    .optional()
    .openapi({
      description:
        "Makes a retried push safe: the same key with the same body within 24 hours returns the first response and creates nothing; the same key with a different body answers 422.",
      example: "churn-q3-2026",
    }),
});
