import { ErrorSchema } from "../../contracts/common";
import { SkillFileQuerySchema, SkillFileResponseSchema, SkillNameParamsSchema } from "../../contracts/skills";
import { defineRoute } from "../../http/route";
import { toSkillFileResponse } from "./to-wire";

export const getSkillFileRoute = defineRoute({
  method: "get",
  path: "/api/v1/skills/{name}/files",
  operationId: "getSkillFile",
  summary: "A file of a skill",
  description:
    "Text-like files (markdown, script, text) inline (`url: null`); binaries as a download address that works without a key for a limited time, 5 minutes by default (`content: null`). The path must match a file entry exactly.",
  tags: ["Skills"],
  auth: { kind: "apiKey", scope: "skills:read" },
  request: { params: SkillNameParamsSchema, query: SkillFileQuerySchema },
  responses: {
    200: { description: "The file.", schema: SkillFileResponseSchema },
    404: { description: "Unknown skill or file path.", schema: ErrorSchema },
    502: { description: "File storage unreachable.", schema: ErrorSchema },
  },
  handle: async ({ params, query }, { principal, services, req }) => {
    const file = await services.skills.getFile(principal.workspaceId, params.name, query.path);
    return { status: 200, body: toSkillFileResponse(file, `${req.protocol}://${req.get("host")}`) };
  },
});
