import { BriefingResponseSchema } from "../../contracts/briefing";
import { RecallMemoriesQuerySchema, RecallMemoriesResponseSchema } from "../../contracts/memories";
import { z } from "../../contracts/zod";
import { toBriefingResponse } from "../../routes/briefing/to-wire";
import { toRecallMemoriesResponse } from "../../routes/memories/to-wire";
import { defineTool } from "../mcp-tool";

export const getBriefingTool = defineTool({
  name: "get_briefing",
  title: "Workspace briefing",
  description:
    "Read first: the workspace's standing context, hard directives agents must always follow, and active rules and definitions (newest first, at most 200). The same answer as GET /api/v1/briefing.",
  scope: "intelligence:read",
  input: z.object({}),
  output: BriefingResponseSchema,
  handle: async (_input, ctx) => toBriefingResponse(await ctx.services.briefing.get(ctx.principal.workspaceId)),
});

export const recallMemoriesTool = defineTool({
  name: "recall_memories",
  title: "Recall memories",
  description:
    "Searches the workspace's currently active memories (preferences, rules, corrections, definitions, findings, context) by meaning and words, best first, at most 10. The same answer as GET /api/v1/memories.",
  scope: "intelligence:read",
  input: RecallMemoriesQuerySchema.extend({ query: RecallMemoriesQuerySchema.shape.query.describe("What to recall, in natural language.") }),
  output: RecallMemoriesResponseSchema,
  handle: async ({ query }, ctx) => toRecallMemoriesResponse(await ctx.services.memories.recall(ctx.principal.workspaceId, query)),
});
