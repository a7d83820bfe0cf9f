import { WorkspaceIdParamsSchema } from "../contracts/admin";
import { ImportDocumentSchema, ImportResultSchema } from "../contracts/import";
import { NO_SUCH_WORKSPACE } from "./admin-workspaces";
import { defineOperation } from "./operation";

export const adminImportWorkspace = defineOperation({
  name: "adminImportWorkspace",
  summary: "Import workspace content",
  description:
    "Loads an import document in one transaction: all of it or nothing. Data sources, skills and directives are upserted by name (replacing their patterns, learnings and files); memories and artifacts are appended.",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema.extend({ document: ImportDocumentSchema }),
  output: ImportResultSchema,
  run: ({ id, document }, { services }) => services.imports.importDocument(id, document),
  errors: {
    not_found: NO_SUCH_WORKSPACE,
    dependency_failed: { description: "File storage unreachable while storing skill files." },
  },
});
