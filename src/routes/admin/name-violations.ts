import { restRoute } from "../../http/rest-route";
import { adminCheckNames } from "../../operations/admin-names";

export const nameViolationsRoute = restRoute(adminCheckNames, {
  method: "get",
  path: "/admin/v1/name-violations",
  tags: ["Names"],
  success: {
    status: 200,
    description: "The offending names; an empty list when every name is valid.",
    example: {
      items: [
        {
          workspaceId: "ws_4Qm9ZtV1c8Hb2LxP0aRk7e",
          workspaceName: "Finance",
          kind: "skill",
          name: "../x",
          problem: "must be lowercase letters, digits and single hyphens, 1 to 64 characters (e.g. churn-analysis)",
        },
      ],
    },
  },
});
