import net from "node:net";
import request from "supertest";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { capturingLogger } from "../support/log-capture";
import { listen } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;
const log = capturingLogger();

beforeAll(async () => {
  t = await createTestApp({ logger: log.logger });
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(() => t.close());

const push = () => request(t.app).post("/api/v1/artifacts").set(ws.auth);
const validArtifact = { summary: "s", why: "w", confidence: 0.5, confidenceExplanation: "c" };

describe("error responses", () => {
  it("answers 404 {error} for an unknown route", async () => {
    const res = await request(t.app).get("/api/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "No route for GET /api/v1/nothing-here", code: "not_found" });
  });

  it("answers 405 {error} with an Allow header for a wrong method", async () => {
    const res = await request(t.app).put("/api/v1/briefing").set(ws.auth);
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(res.body.error).toMatch(/Method PUT is not allowed on \/api\/v1\/briefing/);
  });

  it("answers OPTIONS with 204 and the allowed methods", async () => {
    const res = await request(t.app).options("/api/v1/artifacts");
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe("POST, GET, HEAD, OPTIONS");
  });

  it("answers 400 naming the problem for malformed JSON", async () => {
    const res = await push().type("json").send('{"summary": ');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Request body is not valid JSON/);
  });

  it("answers 413 for a body over 1 MiB", async () => {
    const res = await push().send({ ...validArtifact, content: "x".repeat(1024 * 1024 + 1) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: "Request body is larger than the 1 MiB limit", code: "payload_too_large" });
  });

  it("answers 415 for a body that is not JSON", async () => {
    const res = await push().type("text/plain").send("summary=s");
    expect(res.status).toBe(415);
    expect(res.body.error).toBe("Content-Type must be application/json");
  });

  it("answers 400 naming the missing body for a request declared as JSON that sends none, as curl sends it without -d", async () => {
    // Neither Content-Length nor Transfer-Encoding: no body at all (supertest and fetch always send one).
    const listening = await listen(t.app);
    try {
      const { port } = new URL(listening.baseUrl);
      const answer = await new Promise<string>((resolve, reject) => {
        let text = "";
        const socket = net.connect(Number(port), "127.0.0.1", () =>
          socket.write(`POST /api/v1/artifacts HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${ws.auth.Authorization}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n`),
        );
        socket.on("data", (chunk) => (text += String(chunk)));
        socket.on("end", () => resolve(text));
        socket.on("error", reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)).error).toMatch(/^body: is required/);
    } finally {
      await listening.close();
    }
  });

  it("answers 415 naming utf-8 for a JSON body in another charset, before decoding it", async () => {
    const body = Buffer.from(`\ufeff${JSON.stringify(validArtifact)}`, "utf16le");
    const res = await push().set("Content-Type", "application/json; charset=utf-16").send(body);
    expect(res.status).toBe(415);
    expect(res.body).toEqual({
      error: 'Charset "utf-16" is not supported: send the JSON body as utf-8 (Content-Type: application/json; charset=utf-8)',
      code: "unsupported_media_type",
    });
  });

  it("takes a JSON body declared as charset=UTF-8", async () => {
    await push().set("Content-Type", 'application/json; charset="UTF-8"').send(JSON.stringify(validArtifact)).expect(201);
  });

  it("answers 400 for a JSON body that is not an object", async () => {
    const res = await push().type("json").send("[1,2]");
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("body: must be a JSON object");
  });

  it("answers 400 for a missing body", async () => {
    const res = await push();
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^body: is required/);
  });

  it("answers 400 naming the field for a NUL character in the body", async () => {
    const res = await push().send({ ...validArtifact, summary: "a\u0000b" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("summary: contains a NUL character (\\u0000), which cannot be stored");
  });

  it("answers 400 naming the field for a lone surrogate in the body", async () => {
    const res = await push().type("json").send(`{"summary":"s","why":"\\ud800","confidence":1,"confidenceExplanation":"c"}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("why: contains a lone UTF-16 surrogate, which is not valid Unicode");
  });

  it("answers 400 for a NUL character in an object key of the body", async () => {
    const res = await push().type("json").send(`{"summary":"s","why":"w","confidence":1,"confidenceExplanation":"c","content":{"a\\u0000b":1}}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("content: has a key that contains a NUL character (\\u0000), which cannot be stored");
  });

  it("answers 400 for nesting deeper than 64 levels", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const res = await push().type("json").send(`{"summary":"s","why":"w","confidence":1,"confidenceExplanation":"c","content":{"a":${deep}}}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^content\.a(\[0\])+: is nested deeper than 64 levels$/);
  });

  it("answers 400 for a NUL character in a query parameter", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?query=a%00b").set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^query parameter query: contains a NUL character/);
  });

  it("answers 404 for a NUL character in a path parameter, since no such id can exist", async () => {
    const res = await request(t.app).get("/api/v1/artifacts/a%00b").set(ws.auth);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: "path parameter id: contains a NUL character (\\u0000), which cannot be stored, so no such resource exists",
      code: "not_found",
    });
  });

  it("answers 400 for invalid percent-encoding in the path", async () => {
    const res = await request(t.app).get("/api/v1/artifacts/%E0%A4%A").set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Request path contains invalid percent-encoding");
  });

  it("answers 400 for a repeated query parameter", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?query=a&query=b").set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter query: must be given once, not 2 times");
  });

  it.each(["query[]=x", "query[0]=x", "query[text]=x"])("answers 400 saying the parameter must be a plain string given once for %s", async (search) => {
    const res = await request(t.app).get(`/api/v1/artifacts?${search}`).set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(`query parameter query: must be a plain string given once (query=…), not ${search.split("=")[0]}`);
  });

  it("answers 400 naming a missing required query parameter", async () => {
    const res = await request(t.app).get("/api/v1/artifacts").set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter query: is required");
  });

  it("answers 400 for an out-of-range integer parameter", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?query=x&limit=21").set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter limit: must be an integer from 1 to 20");
  });

  it("answers 400 for a non-numeric integer parameter", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?query=x&limit=ten").set(ws.auth);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("query parameter limit: must be an integer from 1 to 20");
  });

  it("ignores unknown query parameters", async () => {
    const res = await request(t.app).get("/api/v1/artifacts?query=x&future=1").set(ws.auth);
    expect(res.status).toBe(200);
  });

  it("answers 500 with a request id and no stack trace for an unexpected failure, and logs it", async () => {
    const spy = jest.spyOn(t.services.apiKeys, "authenticate").mockRejectedValueOnce(new Error("database exploded"));
    const res = await request(t.app).get("/api/v1/briefing").set(ws.auth).set("X-Request-Id", "req-500-test");
    spy.mockRestore();
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      error: "Internal server error; quote request id req-500-test when reporting it",
      code: "internal",
    });
    expect(JSON.stringify(res.body)).not.toMatch(/exploded|at .*\.ts/);
    const logged = log.lines().find((line) => line.msg === "unhandled error");
    expect(logged).toMatchObject({ requestId: "req-500-test" });
  });
});

describe("request ids and logs", () => {
  it("sends an X-Request-Id on every response", async () => {
    const res = await request(t.app).get("/api/v1/nothing");
    expect(res.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("honours an incoming X-Request-Id", async () => {
    const res = await request(t.app).get("/healthz").set("X-Request-Id", "abc-123");
    expect(res.headers["x-request-id"]).toBe("abc-123");
  });

  it("replaces an incoming X-Request-Id that is not a sane token", async () => {
    const res = await request(t.app).get("/healthz").set("X-Request-Id", "a b <script>");
    expect(res.headers["x-request-id"]).not.toBe("a b <script>");
  });

  it("logs one JSON line per request with method, path, status, duration and request id, never the key", async () => {
    await request(t.app).get("/api/v1/briefing?token=secret").set(ws.auth).set("X-Request-Id", "log-line-test");
    const line = log.lines().find((entry) => entry.requestId === "log-line-test" && entry.msg === "request");
    expect(line).toMatchObject({ method: "GET", path: "/api/v1/briefing", requestId: "log-line-test" });
    expect(typeof line?.status).toBe("number");
    expect(typeof line?.durationMs).toBe("number");
    expect(JSON.stringify(log.lines())).not.toContain(ws.key);
  });
});

describe("health", () => {
  it("answers 200 without a key when the database answers", async () => {
    const res = await request(t.app).get("/healthz");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });

  it("answers 503 {error} when the database does not answer", async () => {
    const spy = jest.spyOn(t.services.database, "ping").mockRejectedValueOnce(new Error("down"));
    const res = await request(t.app).get("/healthz");
    spy.mockRestore();
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("The database is not answering");
  });
});
