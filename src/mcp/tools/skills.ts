import { SkillFileQuerySchema, SkillFileResponseSchema, SkillNameParamsSchema, SkillsResponseSchema } from "../../contracts/skills";
import { z } from "../../contracts/zod";
import { toSkillFileResponse, toSkillsResponse } from "../../routes/skills/to-wire";
import { defineTool } from "../mcp-tool";

export const listSkillsTool = defineTool({
  name: "list_skills",
  title: "Enabled skills",
  description:
    "The workspace's enabled skills (reusable instructions and scripts in the Agent Skills layout) with their files' paths, sizes and kinds. The same answer as GET /api/v1/skills.",
  scope: "skills:read",
  input: z.object({}),
  output: SkillsResponseSchema,
  handle: async (_input, ctx) => toSkillsResponse(await ctx.services.skills.list(ctx.principal.workspaceId)),
});

export const getSkillFileTool = defineTool({
  name: "get_skill_file",
  title: "A file of a skill",
  description:
    "One file of an enabled skill: text-like files inline (content), binaries as a download link that works without a key for a few minutes (url). The same answer as GET /api/v1/skills/{name}/files.",
  scope: "skills:read",
  input: z.object({
    name: SkillNameParamsSchema.shape.name.describe("The skill name, as list_skills shows it."),
    path: SkillFileQuerySchema.shape.path.describe("The file's path inside the skill, e.g. SKILL.md."),
  }),
  output: SkillFileResponseSchema,
  handle: async ({ name, path }, ctx) =>
    toSkillFileResponse(await ctx.services.skills.getFile(ctx.principal.workspaceId, name, path), ctx.baseUrl),
});
