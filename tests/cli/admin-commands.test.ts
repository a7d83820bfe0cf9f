import { parseArgs } from "node:util";
import request from "supertest";
import { COMMANDS, OPTIONS, type AdminRequest, presentAnswer, refusalText, USAGE, UsageError } from "../../src/cli/admin-commands";
import { pushArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(() => t.close());

/** Sends a command's request to the admin API, as `npm run admin` does. */
function send({ method, path, body }: AdminRequest) {
  const call = request(t.app)[method.toLowerCase() as "get" | "post" | "delete" | "patch"](path).set(adminAuth(t.adminToken));
  return body === undefined ? call : call.send(body as object);
}

const statusOf = async (workspaceId: string, id: string) =>
  (await t.database.prisma.artifact.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId, id } } })).status;

describe("npm run admin: its options", () => {
  it("accepts every option the usage names, as the command line parses it", () => {
    const named = [...new Set([...USAGE.matchAll(/--([a-z]+)/g)].map((match) => match[1]!))];
    expect(named).toEqual(expect.arrayContaining(["workspace", "node", "app"]));
    for (const option of named) {
      const flag = OPTIONS[option as keyof typeof OPTIONS] as { type: string } | undefined;
      const args = flag?.type === "boolean" ? [`--${option}`] : [`--${option}`, "value"];
      expect(() => parseArgs({ args: ["command", ...args], allowPositionals: true, options: OPTIONS })).not.toThrow();
    }
  });
});

describe("npm run admin: commands that act on a key or an artifact name its workspace", () => {
  it("key:revoke sends DELETE /admin/v1/workspaces/{workspaceId}/keys/{keyId}, which revokes the key", async () => {
    const doomed = await t.services.apiKeys.create(ws.workspaceId, { name: "doomed" });
    const built = COMMANDS["key:revoke"]!({ workspace: ws.workspaceId, key: doomed.id });
    expect(built).toEqual({ method: "DELETE", path: `/admin/v1/workspaces/${ws.workspaceId}/keys/${doomed.id}` });
    await send(built).expect(204);
    await request(t.app).get("/api/v1/skills").set("Authorization", `Bearer ${doomed.key}`).expect(401);
  });

  it("validate sends POST /admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/validate", async () => {
    const id = await pushArtifact(t, ws.auth);
    const built = COMMANDS.validate!({ workspace: ws.workspaceId, artifact: id, by: "ana" });
    expect(built).toEqual({ method: "POST", path: `/admin/v1/workspaces/${ws.workspaceId}/artifacts/${id}/validate`, body: { by: "ana" } });
    await send(built).expect(200);
    expect(await statusOf(ws.workspaceId, id)).toBe("validated");
  });

  it("dispute sends POST /admin/v1/workspaces/{workspaceId}/artifacts/{artifactId}/dispute", async () => {
    const id = await pushArtifact(t, ws.auth);
    const built = COMMANDS.dispute!({ workspace: ws.workspaceId, artifact: id, by: "ana", reason: "Counts trials" });
    expect(built.path).toBe(`/admin/v1/workspaces/${ws.workspaceId}/artifacts/${id}/dispute`);
    await send(built).expect(200);
    expect(await statusOf(ws.workspaceId, id)).toBe("disputed");
  });

  it.each([
    ["key:revoke", { key: "key_x" }],
    ["validate", { artifact: "art_x", by: "ana" }],
    ["dispute", { artifact: "art_x", by: "ana", reason: "r" }],
  ])("%s refuses to run without --workspace", (command, options) => {
    expect(() => COMMANDS[command]!(options)).toThrow(new UsageError("--workspace is required"));
  });

  it("artifacts passes --status and --limit on to the review queue", async () => {
    const built = COMMANDS.artifacts!({ workspace: ws.workspaceId, status: "draft", limit: "1" });
    expect(built).toEqual({ method: "GET", path: `/admin/v1/workspaces/${ws.workspaceId}/artifacts?status=draft&limit=1` });
    const res = await send(built).expect(200);
    expect(res.body.items.length).toBeLessThanOrEqual(1);
  });
});

describe("npm run admin: what a command prints", () => {
  it("key:revoke confirms the revoked key, where the API's 204 has no body", async () => {
    const doomed = await t.services.apiKeys.create(ws.workspaceId, { name: "revoked-and-told" });
    const options = { workspace: ws.workspaceId, key: doomed.id };
    const res = await send(COMMANDS["key:revoke"]!(options)).expect(204);
    expect(presentAnswer("key:revoke", options, res.status, null)).toEqual({ revoked: doomed.id });
  });

  it("key:revoke prints the error answer as it comes when the key does not exist", async () => {
    const options = { workspace: ws.workspaceId, key: "key_missing" };
    const res = await send(COMMANDS["key:revoke"]!(options));
    expect(res.status).toBe(404);
    expect(presentAnswer("key:revoke", options, res.status, res.body)).toEqual(res.body);
  });

  it("reindex says how many vectors were marked and made again, and that none are left", async () => {
    const options = { workspace: ws.workspaceId };
    const res = await send(COMMANDS.reindex!(options)).expect(200);
    const shown = presentAnswer("reindex", options, res.status, res.body) as Record<string, unknown>;
    expect(shown).not.toHaveProperty("cleared");
    expect(shown).not.toHaveProperty("pending");
    expect(shown).toMatchObject({ markedForReembedding: res.body.cleared, embeddedNow: res.body.embedded, finished: true });
    expect(shown.outcome).toMatch(/^\d+ vectors made again by this command; none left to do$/);
  });

  it("reindex words its counts as parts of one whole when another indexer made some of the vectors", () => {
    const cleared = { artifacts: 9, memories: 28, queryPatterns: 9, errorLearnings: 6 };
    const shown = presentAnswer("reindex", { workspace: "ws_x" }, 200, { cleared, embedded: 31, pending: false }) as { outcome: string };
    expect(shown.outcome).toBe(
      "52 vectors to make again: 31 made by this command, the other 21 by the background indexer alongside it or set aside for having no text (see index-status)",
    );
  });

  it.each([
    ["workspace:delete", "the sentence", "Usage: npm run admin -- workspace:delete --workspace ID --yes"],
    ["data-source:delete", "the sentence", "Usage: npm run admin -- data-source:delete --workspace ID --source NAME"],
    ["key:create", "the sentence", "Usage: npm run admin -- key:create --workspace ID --name NAME [--scopes a,b]"],
    ["frobnicate", "the sentence", "Run npm run admin -- --help for the commands."],
  ])("a refusal of %s prints %s and one line of usage", (command, sentence, usage) => {
    expect(refusalText(sentence, command)).toBe(`${sentence}\n${usage}`);
  });

  it("reindex says the background indexer finishes when the provider failed", () => {
    const cleared = { artifacts: 4, memories: 1, queryPatterns: 0, errorLearnings: 0 };
    const shown = presentAnswer("reindex", { workspace: "ws_x" }, 202, { cleared, embedded: 0, pending: true });
    expect(shown).toEqual({
      outcome: "5 vectors marked for re-embedding; the background indexer is making them (see index-status)",
      markedForReembedding: cleared,
      embeddedNow: 0,
      finished: false,
    });
  });
});

describe("npm run admin: connected apps", () => {
  it("app:list and app:revoke name the workspace, and app:revoke confirms what it revoked", async () => {
    const reviewer = await t.services.reviewers.add(ws.workspaceId, { email: "cli-apps@acme.test", name: "Cli", password: "correct horse battery" });
    const app = await t.services.connectedApps.create(ws.workspaceId, {
      id: "grant-cli-check",
      reviewerId: reviewer.id,
      grantedBy: reviewer.email,
      clientId: "client-cli-check",
      clientName: "CLI check",
      redirectHost: "connector.example",
      scopes: ["artifacts:read"],
    });
    const listed = await send(COMMANDS["app:list"]!({ workspace: ws.workspaceId })).expect(200);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: app.id, clientName: "CLI check", scopes: ["artifacts:read"], revokedAt: null })]);
    const options = { workspace: ws.workspaceId, app: app.id };
    const res = await send(COMMANDS["app:revoke"]!(options)).expect(204);
    expect(presentAnswer("app:revoke", options, res.status, null)).toEqual({ revoked: app.id });
    expect(() => COMMANDS["app:revoke"]!({ app: app.id })).toThrow(UsageError);
  });
});

describe("npm run admin: export and deletion", () => {
  it("export asks for the workspace's import document, written to --file or to stdout", async () => {
    expect(COMMANDS.export!({ workspace: ws.workspaceId, file: "out.json" })).toEqual({ method: "GET", path: `/admin/v1/workspaces/${ws.workspaceId}/export`, saveTo: "out.json" });
    const built = COMMANDS.export!({ workspace: ws.workspaceId });
    expect(built.saveTo).toBe("-");
    const res = await send(built).buffer(true).expect(200);
    expect(JSON.parse(res.text)).toMatchObject({ directives: [], artifacts: expect.any(Array) });
  });

  it("artifact:delete, memory:delete, skill:delete and data-source:delete name the workspace, delete, and say what they deleted", async () => {
    const id = await pushArtifact(t, ws.auth);
    const options = { workspace: ws.workspaceId, artifact: id };
    const built = COMMANDS["artifact:delete"]!(options);
    expect(built).toEqual({ method: "DELETE", path: `/admin/v1/workspaces/${ws.workspaceId}/artifacts/${id}` });
    const res = await send(built).expect(204);
    expect(presentAnswer("artifact:delete", options, res.status, null)).toEqual({ deleted: id });
    expect(COMMANDS["memory:delete"]!({ workspace: "ws_a", memory: "mem_b" }).path).toBe("/admin/v1/workspaces/ws_a/memories/mem_b");
    expect(COMMANDS["skill:delete"]!({ workspace: "ws_a", skill: "churn-kit" }).path).toBe("/admin/v1/workspaces/ws_a/skills/churn-kit");
    expect(COMMANDS["data-source:delete"]!({ workspace: "ws_a", source: "finance lake" }).path).toBe("/admin/v1/workspaces/ws_a/data-sources/finance%20lake");
    expect(() => COMMANDS["skill:delete"]!({ workspace: "ws_a" })).toThrow(new UsageError("--skill is required"));
  });

  it("workspace:delete refuses to run without --yes, and deletes the workspace with it", async () => {
    const doomed = await createWorkspaceWithKey(t.services);
    expect(() => COMMANDS["workspace:delete"]!({ workspace: doomed.workspaceId })).toThrow(UsageError);
    const res = await send(COMMANDS["workspace:delete"]!({ workspace: doomed.workspaceId, yes: "true" })).expect(200);
    expect(res.body).toMatchObject({ workspaceId: doomed.workspaceId, rows: expect.objectContaining({ workspaces: 1 }) });
    await request(t.app).get("/api/v1/briefing").set(doomed.auth).expect(401);
  });
});
