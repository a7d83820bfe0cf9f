import { ErrorSchema } from "../../contracts/common";
import {
  CreateWorkspaceRequestSchema,
  UpdateWorkspaceRequestSchema,
  WorkspaceIdParamsSchema,
  WorkspaceSchema,
} from "../../contracts/admin";
import { defineRoute } from "../../http/route";
import { toWorkspace } from "./to-wire";

export const createWorkspaceRoute = defineRoute({
  method: "post",
  path: "/admin/v1/workspaces",
  operationId: "adminCreateWorkspace",
  summary: "Create a workspace",
  tags: ["Workspaces"],
  auth: { kind: "admin" },
  request: { body: CreateWorkspaceRequestSchema },
  responses: { 201: { description: "The workspace.", schema: WorkspaceSchema } },
  handle: async ({ body }, { services }) => ({
    status: 201,
    body: toWorkspace(await services.workspaces.create(body)),
  }),
});

export const updateWorkspaceRoute = defineRoute({
  method: "patch",
  path: "/admin/v1/workspaces/{id}",
  operationId: "adminUpdateWorkspace",
  summary: "Rename a workspace or change its context",
  tags: ["Workspaces"],
  auth: { kind: "admin" },
  request: { params: WorkspaceIdParamsSchema, body: UpdateWorkspaceRequestSchema },
  responses: {
    200: { description: "The workspace.", schema: WorkspaceSchema },
    404: { description: "No such workspace.", schema: ErrorSchema },
  },
  handle: async ({ params, body }, { services }) => ({
    status: 200,
    body: toWorkspace(await services.workspaces.update(params.id, body)),
  }),
});
