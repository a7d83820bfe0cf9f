import { createHash } from "node:crypto";
import request from "supertest";
import { validatedArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { churnSkill } from "../support/skill-fixtures";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const dataSource = (name: string) => ({ name, connectorType: "postgres" as const, status: "connected" as const });

/** A workspace with one of everything the conditional routes read (the briefing, sources, skills). */
async function filledWorkspace(): Promise<WorkspaceWithKey> {
  const ws = await createWorkspaceWithKey(t.services);
  await importContent(t.services, ws.workspaceId, {
    context: "Fiscal year starts in April.",
    memories: [{ type: "rule", statement: "Exclude test accounts." }],
    dataSources: [dataSource("warehouse")],
    skills: [churnSkill()],
  });
  return ws;
}

interface ConditionalEndpoint {
  name: string;
  path: string;
  /** A change to what the endpoint answers, made the way the product makes it. */
  change: (ws: WorkspaceWithKey) => Promise<unknown>;
}

const ENDPOINTS: ConditionalEndpoint[] = [
  {
    name: "GET /api/v1/briefing",
    path: "/api/v1/briefing",
    change: (ws) =>
      request(t.app).patch(`/admin/v1/workspaces/${ws.workspaceId}`).set(adminAuth(t.adminToken)).send({ context: "Fiscal year starts in July." }).expect(200),
  },
  {
    name: "GET /api/v1/data-sources",
    path: "/api/v1/data-sources",
    change: (ws) => importContent(t.services, ws.workspaceId, { dataSources: [dataSource("finance lake")] }),
  },
  {
    name: "GET /api/v1/skills",
    path: "/api/v1/skills",
    change: (ws) => importContent(t.services, ws.workspaceId, { skills: [churnSkill({ description: "Churn by plan and region." })] }),
  },
  {
    name: "GET /api/v1/skills/{name}/files",
    path: "/api/v1/skills/churn-analysis/files?path=SKILL.md",
    change: (ws) =>
      importContent(t.services, ws.workspaceId, { skills: [churnSkill({ files: [{ path: "SKILL.md", content: "# Churn, revised\n" }] })] }),
  },
];

describe.each(ENDPOINTS)("$name", ({ path, change }) => {
  let ws: WorkspaceWithKey;
  beforeAll(async () => {
    ws = await filledWorkspace();
  });

  it("answers 200 with a strong ETag that is the hash of the body bytes", async () => {
    const res = await request(t.app).get(path).set(ws.auth).expect(200);
    expect(res.headers.etag).toBe(`"${createHash("sha256").update(res.text).digest("base64url")}"`);
  });

  it("answers 304 with no body when If-None-Match holds the current ETag", async () => {
    const { etag } = (await request(t.app).get(path).set(ws.auth).expect(200)).headers;
    const res = await request(t.app).get(path).set(ws.auth).set("If-None-Match", etag!);
    expect(res.status).toBe(304);
    expect(res.text ?? "").toBe("");
    expect(res.headers["content-length"] ?? "0").toBe("0");
    expect(res.headers.etag).toBe(etag);
    expect(res.headers["cache-control"]).toBe("private");
  });

  it("answers 200 with the body when If-None-Match holds another tag", async () => {
    const res = await request(t.app).get(path).set(ws.auth).set("If-None-Match", '"an-old-tag"').expect(200);
    expect(res.body).toEqual(expect.any(Object));
    expect(res.headers.etag).toMatch(/^"[\w-]{43}"$/);
  });

  it("marks the answer Cache-Control: private", async () => {
    const res = await request(t.app).get(path).set(ws.auth).expect(200);
    expect(res.headers["cache-control"]).toBe("private");
  });

  it("changes the ETag when the data changes, so the old tag gets 200 again", async () => {
    const ws = await filledWorkspace(); // its own: this test changes the data
    const before = (await request(t.app).get(path).set(ws.auth).expect(200)).headers.etag!;
    await change(ws);
    const after = await request(t.app).get(path).set(ws.auth).set("If-None-Match", before).expect(200);
    expect(after.headers.etag).not.toBe(before);
  });
});

describe("GET /api/v1/artifacts/{id}", () => {
  let ws: WorkspaceWithKey & { artifactId: string };
  beforeAll(async () => {
    const created = await createWorkspaceWithKey(t.services);
    ws = { ...created, artifactId: await validatedArtifact(t, created.auth) };
  });

  it("answers 200 with a strong ETag made from what is stored, the same for the same bytes, and Cache-Control: private", async () => {
    const res = await request(t.app).get(`/api/v1/artifacts/${ws.artifactId}`).set(ws.auth).expect(200);
    expect(res.headers.etag).toMatch(/^"[\w-]{43}"$/);
    const again = await request(t.app).get(`/api/v1/artifacts/${ws.artifactId}`).set(ws.auth).expect(200);
    expect(again.text).toBe(res.text);
    expect(again.headers.etag).toBe(res.headers.etag);
    expect(res.headers["cache-control"]).toBe("private");
  });

  it("answers 304 with no body when If-None-Match holds the current ETag", async () => {
    const { etag } = (await request(t.app).get(`/api/v1/artifacts/${ws.artifactId}`).set(ws.auth).expect(200)).headers;
    const res = await request(t.app).get(`/api/v1/artifacts/${ws.artifactId}`).set(ws.auth).set("If-None-Match", etag!);
    expect(res.status).toBe(304);
    expect(res.text ?? "").toBe("");
  });

  it("writes the answer's bytes with their length and JSON's media type, and HEAD the same headers without them", async () => {
    const id = await validatedArtifact(t, ws.auth, { summary: "Umsatz für Köln stieg um 12 % — über Plan", content: "## Köln\nÜber Plan: 😀" });
    const res = await request(t.app).get(`/api/v1/artifacts/${id}`).set(ws.auth).expect(200);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(Number(res.headers["content-length"])).toBe(Buffer.byteLength(res.text));
    expect(res.body).toMatchObject({ summary: "Umsatz für Köln stieg um 12 % — über Plan", content: "## Köln\nÜber Plan: 😀" });
    const head = await request(t.app).head(`/api/v1/artifacts/${id}`).set(ws.auth).expect(200);
    expect(head.text ?? "").toBe("");
    expect(head.headers["content-length"]).toBe(res.headers["content-length"]);
    expect(head.headers.etag).toBe(res.headers.etag);
  });

  it("answers 200 when If-None-Match holds another artifact's ETag (a validated artifact never changes)", async () => {
    const other = await validatedArtifact(t, ws.auth, { summary: "Trial signups predict pipeline" });
    const otherTag = (await request(t.app).get(`/api/v1/artifacts/${other}`).set(ws.auth).expect(200)).headers.etag!;
    const res = await request(t.app).get(`/api/v1/artifacts/${ws.artifactId}`).set(ws.auth).set("If-None-Match", otherTag).expect(200);
    expect(res.headers.etag).not.toBe(otherTag);
  });
});

describe("If-None-Match", () => {
  let ws: WorkspaceWithKey;
  beforeAll(async () => {
    ws = await filledWorkspace();
  });

  it("matches a tag anywhere in a list, and a weak W/ form of the tag", async () => {
    const { etag } = (await request(t.app).get("/api/v1/briefing").set(ws.auth).expect(200)).headers;
    await request(t.app).get("/api/v1/briefing").set(ws.auth).set("If-None-Match", `"other", ${etag}`).expect(304);
    await request(t.app).get("/api/v1/briefing").set(ws.auth).set("If-None-Match", `W/${etag}`).expect(304);
  });

  it("answers 304 to * when the resource exists, and still 404 when it does not", async () => {
    await request(t.app).get("/api/v1/data-sources").set(ws.auth).set("If-None-Match", "*").expect(304);
    await request(t.app).get("/api/v1/artifacts/art_missing").set(ws.auth).set("If-None-Match", "*").expect(404);
  });

  it("does not turn a missing key into a 304: authentication comes first", async () => {
    const { etag } = (await request(t.app).get("/api/v1/briefing").set(ws.auth).expect(200)).headers;
    await request(t.app).get("/api/v1/briefing").set("If-None-Match", etag!).expect(401);
  });

  it("gives two workspaces with different data different tags", async () => {
    const other = await createWorkspaceWithKey(t.services);
    const tag = (await request(t.app).get("/api/v1/briefing").set(ws.auth).expect(200)).headers.etag!;
    await request(t.app).get("/api/v1/briefing").set(other.auth).set("If-None-Match", tag).expect(200);
  });
});

describe("routes that are not conditional", () => {
  let ws: WorkspaceWithKey;
  beforeAll(async () => {
    ws = await filledWorkspace();
  });

  it("send no ETag and ignore If-None-Match (search answers change with the index)", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?query=churn").set(ws.auth).set("If-None-Match", '"a-tag"').expect(200);
    expect(res.headers.etag).toBeUndefined();
  });

  it("still mark key-authenticated answers Cache-Control: private, errors from the handler included", async () => {
    expect((await request(t.app).get("/api/v1/memories?query=churn").set(ws.auth).expect(200)).headers["cache-control"]).toBe("private");
    expect((await request(t.app).get("/api/v1/artifacts/art_missing").set(ws.auth).expect(404)).headers["cache-control"]).toBe("private");
  });
});

describe("GET /api/v1/openapi.json", () => {
  it("answers 304 to its own ETag and is not marked private", async () => {
    const res = await request(t.app).get("/api/v1/openapi.json").expect(200);
    expect(res.headers["cache-control"]).toBeUndefined();
    await request(t.app).get("/api/v1/openapi.json").set("If-None-Match", res.headers.etag!).expect(304);
  });

  it("answers 406 when Accept rules out JSON", async () => {
    const res = await request(t.app).get("/api/v1/openapi.json").set("Accept", "text/html").expect(406);
    expect(res.body).toEqual({ error: expect.stringContaining("application/json"), code: "not_acceptable" });
  });
});
