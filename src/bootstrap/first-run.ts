import { randomBase62 } from "../lib/ids";
import type { Services } from "../services";
import { DEMO_DOCUMENT, loadDemoDocument } from "./demo-workspace";

export interface FirstRunResult {
  workspaceId: string;
  workspaceName: string;
  apiKey: string;
  demoDocument: string;
  /** A reviewer sign-in for the console; the password exists only here and in the banner. */
  reviewer: { email: string; password: string };
}

export const DEMO_REVIEWER_EMAIL = "reviewer@example.com";

/**
 * On an empty embedded database: the Demo workspace filled from the demo document, and a
 * full-access key whose secret is shown once, and a console reviewer whose password is shown once. The document is read before anything is created,
 * so a broken one cannot leave a workspace whose key was never printed. Vectors are left to the
 * background indexer, so the first start does not wait for embeddings.
 */
export async function setUpFirstRun(services: Services): Promise<FirstRunResult | undefined> {
  if ((await services.workspaces.count()) > 0) return undefined;
  const demo = loadDemoDocument();
  const workspace = await services.workspaces.create({ name: "Demo", organization: "Demo" });
  await services.imports.importDocument(workspace.id, demo);
  const key = await services.apiKeys.create(workspace.id, { name: "demo" });
  const reviewer = { email: DEMO_REVIEWER_EMAIL, password: randomBase62(20) };
  await services.reviewers.add(workspace.id, { ...reviewer, name: "Demo reviewer" });
  return { workspaceId: workspace.id, workspaceName: workspace.name, apiKey: key.key, demoDocument: DEMO_DOCUMENT, reviewer };
}
