import http from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { TEXT_LIMITS } from "../../src/contracts/text-limits";
import { answerClientErrorsAsJson } from "../../src/http/percent-encoding";
import { minimalArtifact, validateArtifact } from "../support/artifacts";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { distinctWords } from "../support/distinct-words";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(() => t.close());

/** Distinct text of exactly `length` characters, starting at word number `from`. */
const distinctText = (length: number, from: number, alphabet?: string, width?: number) =>
  distinctWords(Math.ceil(length / 2), from, alphabet, width).slice(0, length);

const push = (body: unknown) => request(t.app).post("/api/v1/artifacts").set(ws.auth).send(body as object);
const importDocument = (document: unknown) =>
  request(t.app).post(`/admin/v1/workspaces/${ws.workspaceId}/import`).set(adminAuth(t.adminToken)).send(document as object);
const feedbackCursor = (payload: object) => Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");

describe("fields that feed full-text search", () => {
  it("answers 400 naming summary for a push whose summary and why hold 150,000 distinct words", async () => {
    const words = distinctWords(150_000);
    const res = await push(minimalArtifact({ summary: words.slice(0, words.length / 2), why: words.slice(words.length / 2) }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `summary: must be at most ${TEXT_LIMITS.summary} characters`, code: "bad_request" });
  });

  // CJK words of two characters make the largest tsvector per character of input.
  it.each([
    ["ASCII", undefined, 4],
    ["CJK", Array.from({ length: 3000 }, (_, i) => String.fromCharCode(0x4e00 + i)).join(""), 2],
  ])("accepts a push with every indexed field at its limit in distinct %s words", async (_name, alphabet, width) => {
    let from = 0;
    const text = (length: number) => {
      const value = distinctText(length, from, alphabet, width);
      from += length;
      return value;
    };
    const res = await push(
      minimalArtifact({
        summary: text(TEXT_LIMITS.summary),
        why: text(TEXT_LIMITS.why),
        recommendation: text(TEXT_LIMITS.recommendation),
        keyFindings: Array.from({ length: TEXT_LIMITS.keyFindings }, () => text(TEXT_LIMITS.keyFinding)),
        dataSources: Array.from({ length: TEXT_LIMITS.dataSources }, () => ({
          type: "database",
          name: text(TEXT_LIMITS.dataSourceField),
          id: text(TEXT_LIMITS.dataSourceField),
        })),
      }),
    );
    expect(res.status).toBe(201);
  });

  it("answers 400 naming the field for an imported memory too long to index, and stores nothing", async () => {
    const res = await importDocument({
      memories: [{ type: "finding", statement: "kept?" }, { type: "finding", statement: distinctWords(150_000) }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: `memories[1].statement: must be at most ${TEXT_LIMITS.memoryText} characters`, code: "bad_request" });
    expect(await t.database.prisma.memory.count({ where: { workspaceId: ws.workspaceId, statement: "kept?" } })).toBe(0);
  });
});

describe("feedback cursors", () => {
  it("answers 400 for a re-encoded cursor whose time is out of range", async () => {
    const cursor = feedbackCursor({ v: 1, k: ws.keyId, a: "mine", s: null, t: 9e15, i: "art_x" });
    const res = await request(t.app).get(`/api/v1/feedback?cursor=${cursor}`).set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "query parameter cursor: is not a cursor issued by GET /api/v1/feedback", code: "bad_request" });
  });

  it("answers 400 for a re-encoded cursor with a NUL in its id", async () => {
    const cursor = feedbackCursor({ v: 1, k: ws.keyId, a: "mine", s: null, t: 1, i: "art_\u0000" });
    const res = await request(t.app).get(`/api/v1/feedback?cursor=${cursor}`).set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("bad_request");
  });
});

describe("timestamps", () => {
  it.each([
    ["beyond the JavaScript date range", 1e20],
    ["before year 1", "0000-01-01T00:00:00Z"],
  ])("answers 400 for an imported createdAt %s", async (_name, createdAt) => {
    const res = await importDocument({ memories: [{ type: "finding", statement: "dated", createdAt }] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "memories[0].createdAt: must be a time from year 1 to year 9999", code: "bad_request" });
  });
});

describe("percent-encoding", () => {
  it("answers 400 for a malformed escape in the query string, as in the path", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?query=%E0%A4%A").set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Query string contains invalid percent-encoding", code: "bad_request" });
  });

  it("decodes a well-formed escape and + in the query string", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?query=churn+%C3%A9t%C3%A9").set(ws.auth);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ results: [] });
  });
});

describe("content", () => {
  it("stores a push whose element tree chains 15,000 sections, far deeper than any document", async () => {
    // A flat map, so no JSON nesting limit applies; a walk that recursed per level overflowed the stack.
    const elements: Record<string, unknown> = {};
    for (let i = 0; i < 15_000; i++) elements[`e${i}`] = { type: "Section", children: i < 14_999 ? [`e${i + 1}`] : [] };
    const res = await push(minimalArtifact({ content: { root: "e0", elements } }));
    expect(res.status).toBe(201);
  });

  it("stores and returns a __proto__ key inside content as sent", async () => {
    const content = '{"root":"a","__proto__":{"polluted":true},"elements":{}}';
    const pushed = await request(t.app)
      .post("/api/v1/artifacts")
      .set(ws.auth)
      .type("json")
      .send(`{"summary":"proto","why":"w","confidence":0.5,"confidenceExplanation":"c","content":${content}}`);
    expect(pushed.status).toBe(201);
    await validateArtifact(t, pushed.body.artifactId);
    const res = await request(t.app).get(`/api/v1/artifacts/${pushed.body.artifactId}`).set(ws.auth);
    expect(res.status).toBe(200);
    // jsonb keeps keys in its own order; what matters is that every key and value came back.
    const returned = JSON.parse(res.text).content;
    expect(Object.keys(returned).sort()).toEqual(["__proto__", "elements", "root"]);
    expect(res.text).toContain('"__proto__":{"polluted":true}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("requests Node refuses before the app", () => {
  it("answers 431 {error} for a URL longer than the header limit", async () => {
    const server = http.createServer(t.app);
    answerClientErrorsAsJson(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/artifacts?query=${"a".repeat(20_000)}`);
      expect(res.status).toBe(431);
      expect(await res.json()).toEqual({
        error: "The URL or headers are larger than the server's 16 KiB limit",
        code: "header_too_large",
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
