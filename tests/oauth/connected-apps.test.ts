import request from "supertest";
import type { Browser } from "playwright-core";
import { listen, signIn } from "../support/browser";
import { createReviewer } from "../support/console";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { InMemoryOAuthProvider, startConnectorSite } from "../support/oauth-client";
import { startOAuthScene, type OAuthScene } from "../support/oauth-scene";
import { oauthDance, type OAuthDance } from "../support/oauth-dance";
import type { TestApp } from "../support/test-app";

let t: TestApp;
let browser: Browser;
let server: Awaited<ReturnType<typeof listen>>;
let site: Awaited<ReturnType<typeof startConnectorSite>>;
let home: WorkspaceWithKey;
let other: WorkspaceWithKey;
let reviewer: Awaited<ReturnType<typeof createReviewer>>;
let signedIn: Parameters<Browser["newContext"]>[0];
let dance: OAuthDance;

const connectorUrl = () => new URL("/mcp", server.origin);
const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "curl", version: "1" } } };
const statusWith = async (token: string) =>
  (
    await fetch(connectorUrl(), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${token}` },
      body: JSON.stringify(initialize),
    })
  ).status;

let scene: OAuthScene;
beforeAll(async () => {
  scene = await startOAuthScene();
  ({ t, browser, server, site } = scene);
  home = await createWorkspaceWithKey(t.services, { workspaceName: "Home" });
  other = await createWorkspaceWithKey(t.services, { workspaceName: "Other" });
  reviewer = await createReviewer(t, home.workspaceId);
  const state = await scene.signedIn(reviewer);
  signedIn = { storageState: state };
  dance = oauthDance({ browser, site, connectorUrl: connectorUrl(), reviewer, signedIn: state });
});
afterAll(() => scene?.close());

/** A connector connected through the whole dance; its tokens are in the provider. */
async function connected(name: string): Promise<InMemoryOAuthProvider> {
  const provider = new InMemoryOAuthProvider(site.redirectUri, { client_name: name });
  await (await dance.connect(provider)).close();
  return provider;
}

describe("connected apps", () => {
  it("are listed beside the API keys in the console and revoked there, after which the token gets 401", async () => {
    const provider = await connected("Console revoke check");
    const token = provider.saved!.access_token;
    expect(await statusWith(token)).toBe(200);

    const context = await browser.newContext(signedIn);
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goto(`${server.origin}/console/keys?workspace=${home.workspaceId}`);
    const row = page.locator("[data-connected-apps] tr", { hasText: "Console revoke check" });
    await expect(row.textContent()).resolves.toContain(reviewer.email);
    await expect(row.textContent()).resolves.toContain("intelligence:read");
    await row.locator("button", { hasText: "Revoke" }).click();
    await page.waitForURL(/done=app-revoked/);
    await expect(page.locator("[data-connected-apps] tr", { hasText: "Console revoke check" }).textContent()).resolves.toContain("revoked");
    await context.close();

    expect(await statusWith(token)).toBe(401);
  });

  it("are listed and revoked through the admin API, and a revoked grant's refresh token is refused", async () => {
    const provider = await connected("Admin revoke check");
    const list = await request(t.app).get(`/admin/v1/workspaces/${home.workspaceId}/connected-apps`).set(adminAuth(t.adminToken)).expect(200);
    const app = (list.body.items as Array<{ id: string; clientName: string; grantedBy: string; scopes: string[]; lastUsedAt: number | null }>).find((item) => item.clientName === "Admin revoke check");
    expect(app).toMatchObject({ grantedBy: reviewer.email, scopes: ["artifacts:read", "intelligence:read", "data:read", "skills:read"] });
    expect(app!.lastUsedAt).toEqual(expect.any(Number));
    // Approved: the registration is kept, no longer forgotten after a day.
    expect((await t.database.prisma.oAuthRecord.findFirst({ where: { kind: "Client", key: provider.client!.client_id } }))?.expiresAt).toBeNull();

    await request(t.app).delete(`/admin/v1/workspaces/${other.workspaceId}/connected-apps/${app!.id}`).set(adminAuth(t.adminToken)).expect(404);
    await request(t.app).delete(`/admin/v1/workspaces/${home.workspaceId}/connected-apps/${app!.id}`).set(adminAuth(t.adminToken)).expect(204);
    expect(await statusWith(provider.saved!.access_token)).toBe(401);
    const refreshed = await fetch(`${server.origin}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: provider.saved!.refresh_token!, client_id: provider.client!.client_id }),
    });
    expect(refreshed.status).toBe(400);
    expect(await refreshed.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a token at once when another process revokes its grant, although it was just used here", async () => {
    const provider = await connected("Other process check");
    const token = provider.saved!.access_token;
    expect(await statusWith(token)).toBe(200);
    const app = (await t.services.connectedApps.list(home.workspaceId)).find((item) => item.clientName === "Other process check")!;
    // Another process revokes: only the shared database changes (the grant row, and its tokens deleted).
    await t.database.prisma.connectedApp.update({ where: { workspaceId_id: { workspaceId: home.workspaceId, id: app.id } }, data: { revokedAt: new Date() } });
    await t.database.prisma.oAuthRecord.deleteMany({ where: { grantId: app.id } });
    expect(await statusWith(token)).toBe(401);
  });

  it("are revoked when their approver is removed from the workspace", async () => {
    const approver = await createReviewer(t, other.workspaceId);
    const context = await browser.newContext();
    await signIn(await context.newPage(), server.origin, approver.email, approver.password);
    const approverDance = oauthDance({ browser, site, connectorUrl: connectorUrl(), reviewer: approver, signedIn: await context.storageState() });
    await context.close();
    const provider = new InMemoryOAuthProvider(site.redirectUri, { client_name: "Leaver check" });
    await (await approverDance.connect(provider)).close();
    expect(await statusWith(provider.saved!.access_token)).toBe(200);

    await request(t.app).delete(`/admin/v1/workspaces/${other.workspaceId}/reviewers/${approver.id}`).set(adminAuth(t.adminToken)).expect(204);
    expect(await statusWith(provider.saved!.access_token)).toBe(401);
    const [app] = await t.services.connectedApps.list(other.workspaceId);
    expect(app).toMatchObject({ clientName: "Leaver check", revokedAt: expect.any(Date) });
  });

  it("show a name stored before invisible and text-direction characters were refused with them written out, in the console and the admin API", async () => {
    await t.services.connectedApps.create(home.workspaceId, {
      id: "grant-named-before-the-rule",
      reviewerId: reviewer.id,
      grantedBy: reviewer.email,
      clientId: "client-named-before-the-rule",
      clientName: "Claude\u202egnp.exe",
      redirectHost: "claude.ai",
      scopes: ["artifacts:read"],
    });
    const list = await request(t.app).get(`/admin/v1/workspaces/${home.workspaceId}/connected-apps`).set(adminAuth(t.adminToken)).expect(200);
    expect((list.body.items as Array<{ id: string; clientName: string }>).find((item) => item.id === "grant-named-before-the-rule")?.clientName).toBe("Claude[U+202E]gnp.exe");

    const context = await browser.newContext(signedIn);
    try {
      const page = await context.newPage();
      await page.goto(`${server.origin}/console/keys?workspace=${home.workspaceId}`);
      const row = await page.locator('[data-app-id="grant-named-before-the-rule"]').textContent();
      expect(row).toContain("Claude[U+202E]gnp.exe");
      expect(row).not.toContain("\u202e");
    } finally {
      await context.close();
    }
  });

  it("answers 404 in the admin API for a workspace that does not exist", async () => {
    const res = await request(t.app).get("/admin/v1/workspaces/ws_nope/connected-apps").set(adminAuth(t.adminToken)).expect(404);
    expect(res.body.error).toMatch(/not found/);
  });
});
