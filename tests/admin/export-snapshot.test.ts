import { request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { adminAuth, createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

// An export is one moment of the workspace, however slowly its client reads it and whatever is
// written or deleted meanwhile: a complete document of that moment, never a valid JSON document
// that silently lacks what was deleted after the first bytes left.

const ARTIFACTS = 400;
// Big enough that the answer is far larger than what the loopback socket buffers hold, so a
// paused reader really holds the server mid-answer.
const PADDING = "x".repeat(30_000);

let t: TestApp;
let server: Server;
let baseUrl: string;

const admin = () => adminAuth(t.adminToken);

beforeAll(async () => {
  t = await createTestApp();
  server = t.app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
});

/** A workspace of ARTIFACTS artifacts, every tenth a draft, each carrying PADDING in its code. */
async function workspaceOfArtifacts(): Promise<WorkspaceWithKey> {
  const ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, {
    artifacts: Array.from({ length: ARTIFACTS }, (_, n) => ({
      summary: `Finding ${n}`,
      why: "Renewals moved",
      confidence: 0.7,
      confidenceExplanation: "A year of data",
      codeExecuted: [{ language: "sql", code: `-- ${n}\n${PADDING}` }],
      status: n % 10 === 0 ? ("draft" as const) : ("validated" as const),
    })),
  });
  return ws;
}

/** An export whose answer has begun (status and headers are in) and is then left unread. */
function pausedExport(workspaceId: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}/admin/v1/workspaces/${workspaceId}/export`, { headers: admin(), agent: false }, (res) => {
      res.pause();
      resolve(res);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Reads the rest of a paused answer: its text, or the error that cut it short. */
function readRest(res: IncomingMessage): Promise<{ text: string; error?: Error }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    res.on("data", (chunk: Buffer) => chunks.push(chunk));
    res.on("end", () => resolve({ text: Buffer.concat(chunks).toString("utf8") }));
    res.on("error", (error) => resolve({ text: Buffer.concat(chunks).toString("utf8"), error }));
    res.on("aborted", () => resolve({ text: Buffer.concat(chunks).toString("utf8"), error: new Error("aborted") }));
    res.resume();
  });
}

type ExportedArtifact = { summary: string; status: string };

describe("an export: one moment of its workspace", () => {
  it("is the whole workspace as it was when the export began, though the workspace is deleted meanwhile", async () => {
    const ws = await workspaceOfArtifacts();
    const res = await pausedExport(ws.workspaceId);
    expect(res.statusCode).toBe(200);

    await request(t.app).delete(`/admin/v1/workspaces/${ws.workspaceId}`).set(admin()).expect(200);
    await request(t.app).get(`/admin/v1/workspaces/${ws.workspaceId}/export`).set(admin()).expect(404);

    const { text, error } = await readRest(res);
    expect(error).toBeUndefined();
    const document = JSON.parse(text) as { artifacts: ExportedArtifact[]; memories: unknown[] };
    expect(document.artifacts).toHaveLength(ARTIFACTS);
    expect(Buffer.byteLength(text)).toBe(Number(res.headers["content-length"]));
    expect(new Set(document.artifacts.map((artifact) => artifact.summary)).size).toBe(ARTIFACTS);
    expect(document.artifacts.filter((artifact) => artifact.status === "draft")).toHaveLength(ARTIFACTS / 10);
  });

  it("leaves out pushes and reviews made after it began", async () => {
    const ws = await workspaceOfArtifacts();
    const draft = await t.database.prisma.artifact.findFirstOrThrow({ where: { workspaceId: ws.workspaceId, status: "draft" }, select: { id: true, summary: true } });
    const res = await pausedExport(ws.workspaceId);
    expect(res.statusCode).toBe(200);

    for (let n = 0; n < 5; n++) {
      await request(t.app).post("/api/v1/artifacts").set(ws.auth).send({ summary: `Pushed meanwhile ${n}`, why: "w", confidence: 0.5, confidenceExplanation: "e" }).expect(201);
    }
    await request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/artifacts/${draft.id}/validate`).set(admin()).send({ by: "ana@acme.example" }).expect(200);

    const { text, error } = await readRest(res);
    expect(error).toBeUndefined();
    const document = JSON.parse(text) as { artifacts: ExportedArtifact[] };
    expect(document.artifacts).toHaveLength(ARTIFACTS);
    expect(document.artifacts.some((artifact) => artifact.summary.startsWith("Pushed meanwhile"))).toBe(false);
    expect(document.artifacts.find((artifact) => artifact.summary === draft.summary)).toMatchObject({ status: "draft" });
  });

  it("refuses with a whole error answer, never a cut document, an entry it finds wrong after megabytes of others", async () => {
    const ws = await workspaceOfArtifacts();
    // As an older version might have stored it, and last in the export's order (by id).
    await t.database.prisma.artifact.create({
      data: { id: "art_zzzzzzzzzzzzzzzzzzzzzz", workspaceId: ws.workspaceId, trigger: "chat", summary: "Stored long ago", why: "w", confidence: 5, confidenceExplanation: "e", createdBy: "import" },
      select: { id: true },
    });
    const res = await request(t.app).get(`/admin/v1/workspaces/${ws.workspaceId}/export`).set(admin());
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error: `Cannot export artifacts[${ARTIFACTS}].confidence: must be at most 1; the import would refuse it (fix it, or delete it, and export again)`,
      code: "conflict",
    });
  });

  it("keeps no other workspace waiting while its client does not read", async () => {
    const ws = await workspaceOfArtifacts();
    const other = await createWorkspaceWithKey(t.services);
    await importContent(t.services, other.workspaceId, { dataSources: [{ name: "warehouse", connectorType: "postgres", status: "connected" }] });
    const res = await pausedExport(ws.workspaceId);
    try {
      const list = await request(t.app).get("/api/v1/data-sources").set(other.auth).expect(200);
      expect(list.body.items.map((item: { name: string }) => item.name)).toEqual(["warehouse"]);
      await request(t.app).post("/api/v1/artifacts").set(other.auth).send({ summary: "s", why: "w", confidence: 0.5, confidenceExplanation: "e" }).expect(201);
    } finally {
      res.destroy();
    }
  });
});
