import { CreateWorkspaceRequestSchema, UpdateWorkspaceRequestSchema, WorkspaceIdParamsSchema, WorkspaceSchema } from "../contracts/admin";
import { z } from "../contracts/zod";
import { toWorkspace } from "./admin-wire";
import { defineOperation } from "./operation";

export const NO_SUCH_WORKSPACE = { description: "No such workspace." };

export const adminCreateWorkspace = defineOperation({
  name: "adminCreateWorkspace",
  summary: "Create a workspace",
  access: { kind: "admin" },
  input: z.object({ workspace: CreateWorkspaceRequestSchema }),
  output: WorkspaceSchema,
  run: ({ workspace }, { services }) => services.workspaces.create(workspace),
  toWire: toWorkspace,
});

export const adminUpdateWorkspace = defineOperation({
  name: "adminUpdateWorkspace",
  summary: "Rename a workspace or change its context",
  access: { kind: "admin" },
  input: WorkspaceIdParamsSchema.extend({ changes: UpdateWorkspaceRequestSchema }),
  output: WorkspaceSchema,
  run: ({ id, changes }, { services }) => services.workspaces.update(id, changes),
  toWire: toWorkspace,
  errors: { not_found: NO_SUCH_WORKSPACE },
});
