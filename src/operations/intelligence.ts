import { BriefingResponseSchema } from "../contracts/briefing";
import { RecallMemoriesQuerySchema, RecallMemoriesResponseSchema } from "../contracts/memories";
import { z } from "../contracts/zod";
import { toBriefingResponse } from "./briefing-wire";
import { toRecallMemoriesResponse } from "./memories-wire";
import { defineOperation } from "./operation";

export const getBriefing = defineOperation({
  name: "getBriefing",
  summary: "Workspace briefing",
  description:
    "Workspace context, hard directives, and active rules and definitions (newest first, at most 200). When the directive store cannot be read, `directives` is empty and `directivesAvailable` is false.",
  access: { kind: "workspace", scope: "intelligence:read" },
  input: z.object({}),
  output: BriefingResponseSchema,
  run: (_input, { principal, services }) => services.briefing.get(principal.workspaceId),
  toWire: toBriefingResponse,
  errors: { not_found: { description: "The key's workspace no longer exists.", example: "Workspace ws_5Nf2Lp8RtX1cV7bQm3Zy0a no longer exists" } },
});

export const recallMemories = defineOperation({
  name: "recallMemories",
  summary: "Recall memories",
  description:
    "Hybrid search (meaning and words) over the workspace's currently active memories, best first, at most 10. `context` names the query words a memory contains.",
  access: { kind: "workspace", scope: "intelligence:read" },
  input: RecallMemoriesQuerySchema,
  output: RecallMemoriesResponseSchema,
  run: ({ query }, { principal, services }) => services.memories.recall(principal.workspaceId, query),
  toWire: toRecallMemoriesResponse,
});
