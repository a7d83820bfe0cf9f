import { isRecord } from "../lib/is-record";
import { NonEmptyString, Timestamp, integerQueryParam, numberFromDecimalText } from "./common";
import { TEXT_LIMITS } from "./text-limits";
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

export const SearchArtifactsQuerySchema = z.object({
  query: NonEmptyString.openapi({ description: "Natural-language text.", example: "big clients cancelling more" }),
  limit: integerQueryParam({ min: 1, max: 20, default: 10, description: "How many results, 1 to 20." }),
});

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
