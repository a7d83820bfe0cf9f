import type { Scope } from "../../src/auth/scopes";
import type { z } from "zod";
import { ImportDocumentSchema } from "../../src/contracts/import";
import type { Services } from "../../src/services";

let counter = 0;

export interface WorkspaceWithKey {
  workspaceId: string;
  keyId: string;
  key: string;
  auth: { Authorization: string };
}

/** A new workspace of its own and a key into it, so no test depends on another's data. */
export async function createWorkspaceWithKey(
  services: Services,
  options: { scopes?: Scope[]; keyName?: string; workspaceName?: string } = {},
): Promise<WorkspaceWithKey> {
  counter += 1;
  const workspace = await services.workspaces.create({ name: options.workspaceName ?? `Workspace ${counter}` });
  return { workspaceId: workspace.id, ...(await createKey(services, workspace.id, options)) };
}

export async function createKey(
  services: Services,
  workspaceId: string,
  options: { scopes?: Scope[]; keyName?: string } = {},
): Promise<Omit<WorkspaceWithKey, "workspaceId">> {
  const created = await services.apiKeys.create(workspaceId, { name: options.keyName ?? `key ${counter}`, scopes: options.scopes });
  return { keyId: created.id, key: created.key, auth: { Authorization: `Bearer ${created.key}` } };
}

export const adminAuth = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Loads content into a workspace through the real import service, validated by the import contract. */
export function importContent(services: Services, workspaceId: string, document: z.input<typeof ImportDocumentSchema>) {
  return services.imports.importDocument(workspaceId, ImportDocumentSchema.parse(document));
}
