import { ErrorSchema } from "../../contracts/common";
import { WorkspaceIdParamsSchema } from "../../contracts/admin";
import { ImportDocumentSchema, ImportResultSchema } from "../../contracts/import";
import { defineRoute } from "../../http/route";

export const importWorkspaceRoute = defineRoute({
  method: "post",
  path: "/admin/v1/workspaces/{id}/import",
  operationId: "adminImportWorkspace",
  summary: "Import workspace content",
  description:
    "Loads an import document in one transaction: all of it or nothing. Data sources, skills and directives are upserted by name (replacing their patterns, learnings and files); memories and artifacts are appended.",
  tags: ["Import"],
  auth: { kind: "admin" },
  request: { params: WorkspaceIdParamsSchema, body: ImportDocumentSchema },
  responses: {
    200: { description: "What was imported, and the new artifacts' ids in input order.", schema: ImportResultSchema },
    404: { description: "No such workspace.", schema: ErrorSchema },
    502: { description: "File storage unreachable while storing skill files.", schema: ErrorSchema },
  },
  handle: async ({ params, body }, { services }) => ({
    status: 200,
    body: await services.imports.importDocument(params.id, body),
  }),
});
