import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { validatedArtifact } from "../support/artifacts";
import { listen } from "../support/browser";
import { createReviewer } from "../support/console";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { callTool, textJson } from "../support/mcp-client";
import { InMemoryOAuthProvider, startConnectorSite } from "../support/oauth-client";
import { startOAuthScene, type OAuthScene } from "../support/oauth-scene";
import { oauthDance, type OAuthDance } from "../support/oauth-dance";
import type { TestApp } from "../support/test-app";

/** A CA and a certificate it signed for localhost, made with openssl for this file only. */
function makeCertificates(dir: string) {
  const run = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=Connector test CA");
  run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=localhost");
  writeFileSync(path.join(dir, "leaf.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  run("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "leaf.pem", "-days", "1", "-extfile", "leaf.ext");
  const read = (name: string) => readFileSync(path.join(dir, name), "utf8");
  return { ca: read("ca.pem"), key: read("leaf.key"), cert: read("leaf.pem") };
}

let dir: string;
let documents: Server;
let documentsOrigin: string;
/** What each path of the documents server answers, and how often it was asked. */
const served = new Map<string, { body: string; fetched: number }>();
let t: TestApp;
let browser: Browser;
let server: Awaited<ReturnType<typeof listen>>;
let site: Awaited<ReturnType<typeof startConnectorSite>>;
let home: WorkspaceWithKey;
let artifact: string;
let dance: OAuthDance;
let scene: OAuthScene;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "cimd-"));
  const { ca, key, cert } = makeCertificates(dir);
  documents = createServer({ key, cert }, (req, res) => {
    const entry = served.get(req.url ?? "");
    if (!entry) return void res.writeHead(404).end();
    entry.fetched += 1;
    res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "max-age=300" }).end(entry.body);
  });
  await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve));
  documentsOrigin = `https://localhost:${(documents.address() as AddressInfo).port}`;

  scene = await startOAuthScene({ clientMetadataCa: ca, clientMetadataLoopback: true });
  ({ t, browser, server, site } = scene);
  home = await createWorkspaceWithKey(t.services, { workspaceName: "Home" });
  artifact = await validatedArtifact(t, home.auth, { summary: "Lisbon kiosk footfall rose in July" });
  const reviewer = await createReviewer(t, home.workspaceId);
  dance = oauthDance({ browser, site, connectorUrl: new URL("/mcp", server.origin), reviewer, signedIn: await scene.signedIn(reviewer) });
});
afterAll(async () => {
  await scene?.close();
  documents?.closeAllConnections();
  await new Promise((resolve) => documents?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** Publishes a metadata document and returns its URL, the client id. */
function publish(name: string, metadata: (clientId: string) => Record<string, unknown>): string {
  const clientId = `${documentsOrigin}/${name}.json`;
  served.set(`/${name}.json`, { body: JSON.stringify(metadata(clientId)), fetched: 0 });
  return clientId;
}

const connectorMetadata = (clientName: string) => (clientId: string) => ({
  client_id: clientId,
  client_name: clientName,
  redirect_uris: [site.redirectUri],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
});

describe("Client ID Metadata Documents", () => {
  it("takes an https client id's document as its registration: consent names the app, the grant works, nothing is registered", async () => {
    const clientId = publish("connector", connectorMetadata("Metadata connector"));
    const provider = new InMemoryOAuthProvider(site.redirectUri, {}, clientId);
    const { callback, consentText } = await dance.consentInBrowser(await dance.startConnecting(provider));
    expect(provider.client?.client_id).toBe(clientId);
    expect(consentText).toContain("Metadata connector");
    const client = await dance.finish(provider, callback);
    expect(textJson(await callTool(client, "fetch", { id: artifact }))).toMatchObject({ id: artifact });
    await client.close();
    expect(await t.database.prisma.oAuthRecord.count({ where: { kind: "Client" } })).toBe(0);
    const [app] = await t.services.connectedApps.list(home.workspaceId);
    expect(app).toMatchObject({ clientId, clientName: "Metadata connector" });
  });

  it("fetches a document once and serves it from its cache within max-age", async () => {
    const clientId = publish("cached", connectorMetadata("Cached connector"));
    for (let round = 0; round < 2; round += 1) {
      await dance.connect(new InMemoryOAuthProvider(site.redirectUri, {}, clientId)).then((client) => client.close());
    }
    expect(served.get("/cached.json")?.fetched).toBe(1);
  });

  it("refuses a document whose client_id is not its own URL", async () => {
    const clientId = publish("impostor", (id) => ({ ...connectorMetadata("Impostor")(id), client_id: `${documentsOrigin}/someone-else.json` }));
    const url = new URL("/oauth/authorize", server.origin);
    url.search = new URLSearchParams({ client_id: clientId, response_type: "code", redirect_uri: site.redirectUri, code_challenge: "x".repeat(43), code_challenge_method: "S256" }).toString();
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("client_id metadata document client_id does not match the expected value");
  });

  it.each([
    ["a plain-http redirect URI", { redirect_uris: ["http://evil.example/callback"] }, "redirect_uris[0]: must use https; http is accepted only for a loopback host"],
    ["a name with a text-direction override", { client_name: "Claude\u202egnp.exe" }, "client_name: contains U+202E, an invisible or text-direction control character"],
    ["a name the database cannot store", { client_name: "Claude\u0000" }, "client_name: contains a NUL character"],
    ["a redirect URI the database cannot store", { redirect_uris: ["https://connector.example/cb\ud800"] }, "redirect_uris[0]: contains a lone UTF-16 surrogate"],
  ])("refuses a document with %s as registration would, on its own page", async (label, overrides, description) => {
    const clientId = publish(`bad-${label.replace(/\W+/g, "-")}`, (id) => ({ ...connectorMetadata("Bad document")(id), ...overrides }));
    const url = new URL("/oauth/authorize", server.origin);
    url.search = new URLSearchParams({ client_id: clientId, response_type: "code", redirect_uri: site.redirectUri, code_challenge: "x".repeat(43), code_challenge_method: "S256" }).toString();
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain(description);
  });

  it("refuses a document larger than its size cap", async () => {
    const clientId = publish("large", (id) => ({ ...connectorMetadata("Large")(id), padding: "x".repeat(6_000) }));
    const url = new URL("/oauth/authorize", server.origin);
    url.search = new URLSearchParams({ client_id: clientId, response_type: "code", redirect_uri: site.redirectUri, code_challenge: "x".repeat(43), code_challenge_method: "S256" }).toString();
    const res = await fetch(url, { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("client_id metadata document fetch failed");
  });
});
