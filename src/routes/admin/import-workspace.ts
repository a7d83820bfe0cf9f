import { ErrorSchema } from "../../contracts/common";
import { WorkspaceIdParamsSchema } from "../../contracts/admin";
import { z } from "../../contracts/zod";
import { notImplemented } from "../../http/not-implemented";
import { defineRoute } from "../../http/route";

export const importWorkspaceRoute = defineRoute({
  method: "post",
  path: "/admin/v1/workspaces/{id}/import",
  operationId: "adminImportWorkspace",
  summary: "Import workspace content",
  description: "Loads an import document in one transaction: all of it or nothing.",
  tags: ["Import"],
  auth: { kind: "admin" },
  request: { params: WorkspaceIdParamsSchema, body: z.object({}).loose().openapi("AdminImportDocument") },
  responses: {
    200: { description: "What was imported." },
    404: { description: "No such workspace.", schema: ErrorSchema },
  },
  handle: async () => notImplemented("POST /admin/v1/workspaces/{id}/import"),
});
