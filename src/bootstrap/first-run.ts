import type { Services } from "../services";
import { DEMO_DOCUMENT, loadDemoDocument } from "./demo-workspace";

export interface FirstRunResult {
  workspaceId: string;
  workspaceName: string;
  apiKey: string;
  demoDocument: string;
}

/**
 * On an empty embedded database: the Demo workspace filled from the demo document, and a
 * full-access key whose secret is shown once. The document is read before anything is created,
 * so a broken one cannot leave a workspace whose key was never printed. Vectors are left to the
 * background indexer, so the first start does not wait for embeddings.
 */
export async function setUpFirstRun(services: Services): Promise<FirstRunResult | undefined> {
  if ((await services.workspaces.count()) > 0) return undefined;
  const demo = loadDemoDocument();
  const workspace = await services.workspaces.create({ name: "Demo", organization: "Demo" });
  await services.imports.importDocument(workspace.id, demo);
  const key = await services.apiKeys.create(workspace.id, { name: "demo" });
  return { workspaceId: workspace.id, workspaceName: workspace.name, apiKey: key.key, demoDocument: DEMO_DOCUMENT };
}
