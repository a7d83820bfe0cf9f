import { SkillsResponseSchema } from "../../contracts/skills";
import { notImplemented } from "../../http/not-implemented";
import { defineRoute } from "../../http/route";

export const listSkillsRoute = defineRoute({
  method: "get",
  path: "/api/v1/skills",
  operationId: "listSkills",
  summary: "Enabled skills",
  description: "The workspace's enabled skills with the entries of their files.",
  tags: ["Skills"],
  auth: { kind: "apiKey", scope: "skills:read" },
  responses: { 200: { description: "The skills.", schema: SkillsResponseSchema } },
  handle: async () => notImplemented("GET /api/v1/skills"),
});
