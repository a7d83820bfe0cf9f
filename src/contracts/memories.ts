import { boundedString } from "./common";
import { INPUT_LIMITS } from "./text-limits";
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
  query: boundedString(INPUT_LIMITS.searchText).openapi({
    description: `What to recall, in natural language: 1 to ${INPUT_LIMITS.searchText} characters.`,
    example: "how do we define churn",
  }),
});
