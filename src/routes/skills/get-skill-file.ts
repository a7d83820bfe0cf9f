import { restRoute } from "../../http/rest-route";
import { getSkillFile } from "../../operations/skills";

export const getSkillFileRoute = restRoute(getSkillFile, {
  method: "get",
  path: "/api/v1/skills/{name}/files",
  tags: ["Skills"],
  conditional: true,
  success: {
    status: 200,
    description: "The file. A binary's download address changes with every answer, and so does its `ETag`.",
    example: { path: "SKILL.md", kind: "markdown", size: 1834, content: "---\nname: churn-analysis\n---\n# Churn analysis\n", url: null },
  },
});
