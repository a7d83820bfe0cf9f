import { Timestamp, boundedString, integerQueryParam } from "./common";
import { INPUT_LIMITS } from "./text-limits";
import { z } from "./zod";

export const ArtifactStatusSchema = z.enum(["draft", "validated", "disputed"]);

export const FeedbackItemSchema = z
  .object({
    artifactId: z.string(),
    summary: z.string(),
    status: ArtifactStatusSchema,
    disputeReason: z.string().optional(),
    validatedAt: Timestamp.optional(),
    validatedBy: z.string().optional(),
    confidence: z.number(),
    createdBy: z.string().openapi({ description: "Name of the API key that pushed the artifact, at push time." }),
    createdAt: Timestamp,
  })
  .openapi("FeedbackItem");

export const FeedbackResponseSchema = z
  .object({
    items: z.array(FeedbackItemSchema),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null when there are no more." }),
  })
  .openapi("FeedbackResponse");

export const FeedbackQuerySchema = z.object({
  cursor: boundedString(INPUT_LIMITS.cursor)
    .optional()
    .openapi({ description: "Opaque: the nextCursor of a previous response.", example: "eyJjIjoxNzYzNTEwNDAwMDAwfQ" }),
  limit: integerQueryParam({ min: 1, max: 100, default: 20, description: "Page size, 1 to 100." }),
  status: ArtifactStatusSchema.optional().openapi({ description: "Only artifacts in this status." }),
  audience: z
    .enum(["mine", "workspace"])
    .default("mine")
    .openapi({ description: "`mine`: pushed by the calling key; `workspace`: every external push of the workspace." }),
});
