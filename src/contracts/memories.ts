import { NonEmptyString } from "./common";
import { z } from "./zod";

export const MemoryTypeSchema = z.enum(["preference", "rule", "correction", "definition", "finding", "context"]);

export const MemoryHitSchema = z
  .object({
    memoryId: z.string(),
    type: MemoryTypeSchema,
    statement: z.string(),
    goingForward: z.string().optional(),
    context: z.string().optional().openapi({ description: "Why the memory matched, when known." }),
  })
  .openapi("MemoryHit");

export const RecallMemoriesResponseSchema = z
  .object({ hits: z.array(MemoryHitSchema) })
  .openapi("RecallMemoriesResponse");

export const RecallMemoriesQuerySchema = z.object({
  query: NonEmptyString.openapi({ description: "What to recall, in natural language.", example: "how do we define churn" }),
});
