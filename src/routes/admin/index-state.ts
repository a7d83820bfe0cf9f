import { restRoute } from "../../http/rest-route";
import { adminGetIndexState } from "../../operations/admin-search";

export const indexStateRoute = restRoute(adminGetIndexState, {
  method: "get",
  path: "/admin/v1/workspaces/{id}/index",
  tags: ["Search"],
  success: { status: 200, description: "The index state." },
});
