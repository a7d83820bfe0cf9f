import { Timestamp } from "./common";
import { z } from "./zod";

export const BriefingDirectiveSchema = z
  .object({ id: z.string(), name: z.string(), content: z.string() })
  .openapi("BriefingDirective");

export const BriefingMemorySchema = z
  .object({
    type: z.enum(["rule", "definition"]),
    statement: z.string(),
    goingForward: z.string().optional(),
    createdAt: Timestamp,
  })
  .openapi("BriefingMemory");

export const BriefingResponseSchema = z
  .object({
    workspace: z.object({
      name: z.string(),
      context: z.string().nullable().openapi({ description: "Standing context injected into every agent prompt." }),
    }),
    directives: z.array(BriefingDirectiveSchema),
    directivesAvailable: z.boolean(),
    memories: z.array(BriefingMemorySchema).max(200),
  })
  .openapi("BriefingResponse");
