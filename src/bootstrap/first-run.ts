import type { Services } from "../services";

export interface FirstRunResult {
  workspaceId: string;
  workspaceName: string;
  apiKey: string;
}

/** On an empty embedded database: the Demo workspace and a full-access key, whose secret is shown once. */
export async function setUpFirstRun(services: Services): Promise<FirstRunResult | undefined> {
  if ((await services.workspaces.count()) > 0) return undefined;
  const workspace = await services.workspaces.create({ name: "Demo", organization: "Demo" });
  const key = await services.apiKeys.create(workspace.id, { name: "demo" });
  return { workspaceId: workspace.id, workspaceName: workspace.name, apiKey: key.key };
}
