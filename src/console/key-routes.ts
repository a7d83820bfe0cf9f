import type { Request, Response, Router } from "express";
import { CreateApiKeyRequestSchema } from "../contracts/admin";
import { notFound } from "../http/api-error";
import type { Services } from "../services";
import { keysPage, type KeysView } from "./pages/keys";
import { chromeOf, localsOf, redirect, sendPage, workspaceOf } from "./respond";

export function mountKeyRoutes(router: Router, services: Services, now: () => Date): void {
  async function show(res: Response, status: number, workspace: { id: string; name: string }, extra: Partial<KeysView> = {}) {
    const keys = await services.apiKeys.list(workspace.id);
    const chrome = { ...chromeOf(res, { workspaceId: workspace.id, active: "keys" as const }), csrfToken: localsOf(res).csrfToken ?? "" };
    sendPage(res, status, keysPage(chrome, { workspace, keys, now: now(), ...extra }));
  }

  /** A workspace named in the query or form must be one of the reviewer's; none given means their first. */
  function requiredWorkspace(res: Response, id: unknown) {
    const workspace = workspaceOf(res, id);
    if (!workspace) throw notFound("You are not a reviewer of any workspace");
    return workspace;
  }

  router.get("/keys", async (req: Request, res: Response) => {
    const workspace = requiredWorkspace(res, req.query.workspace);
    await show(res, 200, workspace, { notice: req.query.done === "revoked" ? "Key revoked: agents using it get 401 from now on." : undefined });
  });

  router.post("/keys", async (req: Request, res: Response) => {
    const body = req.body as Record<string, unknown>;
    const workspace = requiredWorkspace(res, body.workspace);
    const scopes = body.scopes === undefined ? [] : [body.scopes].flat();
    const parsed = CreateApiKeyRequestSchema.safeParse({ name: typeof body.name === "string" ? body.name.trim() : body.name, scopes });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return show(res, 400, workspace, { error: `${issue?.path.join(".") || "form"}: ${issue?.message ?? "invalid"}` });
    }
    const created = await services.apiKeys.create(workspace.id, parsed.data);
    // The secret is in this one response only: never redirect it through a URL.
    await show(res, 201, workspace, { created: { name: created.name, key: created.key } });
  });

  router.post("/keys/:id/revoke", async (req: Request, res: Response) => {
    const workspace = requiredWorkspace(res, (req.body as Record<string, unknown>).workspace);
    // Named with the workspace: a key of another workspace is not found there (404).
    await services.apiKeys.revoke(String(req.params.id), workspace.id);
    redirect(res, `/console/keys?workspace=${encodeURIComponent(workspace.id)}&done=revoked`);
  });
}
