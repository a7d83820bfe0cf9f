import { SkillsResponseSchema } from "../../contracts/skills";
import { defineRoute } from "../../http/route";
import { toSkillsResponse } from "./to-wire";

export const listSkillsRoute = defineRoute({
  method: "get",
  path: "/api/v1/skills",
  operationId: "listSkills",
  summary: "Enabled skills",
  description: "The workspace's enabled skills, by name, with the entries of their files (path, byte size, kind).",
  tags: ["Skills"],
  auth: { kind: "apiKey", scope: "skills:read" },
  conditional: true,
  responses: {
    200: {
      description: "The skills.",
      schema: SkillsResponseSchema,
      example: {
        items: [
          {
            name: "churn-analysis",
            description: "Cohort churn analysis with the workspace's churn definition.",
            version: 2,
            source: "authored",
            official: true,
            allowedTools: ["sql"],
            files: [
              { path: "SKILL.md", size: 1834, kind: "markdown" },
              { path: "assets/retention-curve-example.png", size: 48211, kind: "binary" },
            ],
          },
        ],
      },
    },
  },
  handle: async (_input, { principal, services }) => ({
    status: 200,
    body: toSkillsResponse(await services.skills.list(principal.workspaceId)),
  }),
});
