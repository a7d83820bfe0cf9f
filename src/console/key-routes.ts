import type { Request, Response, Router } from "express";
import { notFound } from "../http/api-error";
import { adminRevokeConnectedApp } from "../operations/admin-connected-apps";
import { adminCreateApiKey, adminRevokeWorkspaceApiKey } from "../operations/admin-keys";
import type { Services } from "../services";
import { inputOf, parseInput, runOperation } from "./operations";
import { keysPage, type KeysView } from "./pages/keys";
import { chromeOf, localsOf, redirect, sendPage, workspaceOf } from "./respond";

export function mountKeyRoutes(router: Router, services: Services, now: () => Date): void {
  // The page lists keys with the service method the admin API's key list calls.
  async function show(res: Response, status: number, workspace: { id: string; name: string }, extra: Partial<KeysView> = {}) {
    const [keys, apps] = await Promise.all([services.apiKeys.list(workspace.id), services.connectedApps.list(workspace.id)]);
    const chrome = { ...chromeOf(res, { workspaceId: workspace.id, active: "keys" as const }), csrfToken: localsOf(res).csrfToken ?? "" };
    sendPage(res, status, keysPage(chrome, { workspace, keys, apps, now: now(), ...extra }));
  }

  /** A workspace named in the query or form must be one of the reviewer's; none given means their first. */
  function requiredWorkspace(res: Response, id: unknown) {
    const workspace = workspaceOf(res, id);
    if (!workspace) throw notFound("You are not a reviewer of any workspace");
    return workspace;
  }

  router.get("/keys", async (req: Request, res: Response) => {
    const workspace = requiredWorkspace(res, req.query.workspace);
    const notices: Record<string, string> = {
      revoked: "Key revoked: agents using it get 401 from now on.",
      "app-revoked": "App disconnected: its tokens get 401 from now on.",
    };
    await show(res, 200, workspace, { notice: notices[String(req.query.done)] });
  });

  router.post("/keys", async (req: Request, res: Response) => {
    const body = req.body as Record<string, unknown>;
    const workspace = requiredWorkspace(res, body.workspace);
    // A form sends no field for no box ticked, and the field once per box ticked.
    const scopes = body.scopes === undefined ? [] : [body.scopes].flat();
    const name = typeof body.name === "string" ? body.name.trim() : body.name;
    const parsed = parseInput(adminCreateApiKey, { id: workspace.id, apiKey: { name, scopes } });
    if (!parsed.ok) return show(res, 400, workspace, { error: parsed.problem });
    const { body: created } = await runOperation(adminCreateApiKey, parsed.input, services, req);
    // The secret is in this one response only: never redirect it through a URL.
    await show(res, 201, workspace, { created: { name: created.name, key: created.key } });
  });

  router.post("/keys/:id/revoke", async (req: Request, res: Response) => {
    const workspace = requiredWorkspace(res, (req.body as Record<string, unknown>).workspace);
    // Scoped to the workspace: a key of another workspace is not found there (404).
    const input = inputOf(adminRevokeWorkspaceApiKey, { workspaceId: workspace.id, keyId: String(req.params.id) });
    await runOperation(adminRevokeWorkspaceApiKey, input, services, req);
    redirect(res, `/console/keys?workspace=${encodeURIComponent(workspace.id)}&done=revoked`);
  });

  router.post("/connected-apps/:id/revoke", async (req: Request, res: Response) => {
    const workspace = requiredWorkspace(res, (req.body as Record<string, unknown>).workspace);
    // Scoped to the workspace, as keys are: another workspace's grant is not found here.
    const input = inputOf(adminRevokeConnectedApp, { workspaceId: workspace.id, appId: String(req.params.id) });
    await runOperation(adminRevokeConnectedApp, input, services, req);
    redirect(res, `/console/keys?workspace=${encodeURIComponent(workspace.id)}&done=app-revoked`);
  });
}
