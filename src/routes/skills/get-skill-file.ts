import { ErrorSchema } from "../../contracts/common";
import { SkillFileQuerySchema, SkillFileResponseSchema, SkillNameParamsSchema } from "../../contracts/skills";
import { notImplemented } from "../../http/not-implemented";
import { defineRoute } from "../../http/route";

export const getSkillFileRoute = defineRoute({
  method: "get",
  path: "/api/v1/skills/{name}/files",
  operationId: "getSkillFile",
  summary: "A file of a skill",
  description: "Text-like files inline (`url: null`); binaries as a time-limited download address (`content: null`).",
  tags: ["Skills"],
  auth: { kind: "apiKey", scope: "skills:read" },
  request: { params: SkillNameParamsSchema, query: SkillFileQuerySchema },
  responses: {
    200: { description: "The file.", schema: SkillFileResponseSchema },
    404: { description: "Unknown skill or file path.", schema: ErrorSchema },
    502: { description: "File storage unreachable.", schema: ErrorSchema },
  },
  handle: async () => notImplemented("GET /api/v1/skills/{name}/files"),
});
