import { restRoute } from "../../http/rest-route";
import { listSkills } from "../../operations/skills";

export const listSkillsRoute = restRoute(listSkills, {
  method: "get",
  path: "/api/v1/skills",
  tags: ["Skills"],
  conditional: true,
  success: {
    status: 200,
    description: "The skills.",
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
});
