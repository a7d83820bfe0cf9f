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
  conditional: true,
  responses: {
    200: {
      description: "The file. A binary's download address changes with every answer, and so does its `ETag`.",
      schema: SkillFileResponseSchema,
      example: { path: "SKILL.md", kind: "markdown", size: 1834, content: "---\nname: churn-analysis\n---\n# Churn analysis\n", url: null },
    },
    404: {
      description: "Unknown skill or file path.",
      schema: ErrorSchema,
      example: { error: 'Skill "churn-analysis" has no file at path "README.md"', code: "not_found" },
    },
    502: { description: "File storage unreachable.", schema: ErrorSchema },
  },
  handle: async ({ params, query }, { principal, services, req }) => {
    const file = await services.skills.getFile(principal.workspaceId, params.name, query.path);
    return { status: 200, body: toSkillFileResponse(file, `${req.protocol}://${req.get("host")}`) };
  },
});
