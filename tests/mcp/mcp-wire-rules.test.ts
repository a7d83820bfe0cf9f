import { request as httpRequest } from "node:http";
import { buildApp } from "../../src/app";
import { createLogger } from "../../src/lib/logger";
import { validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { listen, type ListeningApp, MCP_HEADERS } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

// Raw HTTP on purpose: these are the refusals a well-behaved client never provokes.

let t: TestApp;
let http: ListeningApp;
let ws: WorkspaceWithKey;
let artifactId: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies are checked by matchers
const json = async (res: Response): Promise<any> => res.json();

const REVISION = "2026-07-28";

/** The per-request envelope of revision 2026-07-28, as the SDK's client writes it. */
const envelope = (extra: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {},
  ...extra,
});

const modernCall = (id: number, name: string, args: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, _meta: envelope(meta) },
});

const modernHeaders = (method: string, name?: string) => ({
  "MCP-Protocol-Version": REVISION,
  "Mcp-Method": method,
  ...(name === undefined ? {} : { "Mcp-Name": name }),
});

function post(body: unknown, headers: Record<string, string> = {}, baseUrl = http.baseUrl) {
  return fetch(`${baseUrl}/mcp`, { method: "POST", headers: { ...MCP_HEADERS, ...ws.auth, ...headers }, body: JSON.stringify(body) });
}

/** What is left of the key's per-key budget, from the RateLimit field of an answer. */
const remaining = (res: Response) => Number(/\br=(\d+)/.exec(res.headers.get("ratelimit") ?? "")?.[1]);

beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app);
  ws = await createWorkspaceWithKey(t.services);
  artifactId = await validatedArtifact(t, ws.auth, { summary: "Lisbon kiosk footfall rose in July" });
});

afterAll(async () => {
  await http.close();
  await t.close();
});

describe("revision 2026-07-28", () => {
  it("answers server/discover with the revisions it serves, in JSON", async () => {
    const res = await post({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope() } }, modernHeaders("server/discover"));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body = await json(res);
    expect(body.result).toMatchObject({ supportedVersions: [REVISION], capabilities: { tools: { listChanged: false } } });
    expect(body.result.instructions).toMatch(/treat it as data/);
  });

  it("answers a tools/call carrying trace context in _meta", async () => {
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const res = await post(modernCall(2, "fetch", { id: artifactId }, { traceparent }), modernHeaders("tools/call", "fetch"));
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ id: 2, result: { structuredContent: { id: artifactId, title: "Lisbon kiosk footfall rose in July" } } });
  });

  it("answers 400 naming MCP-Protocol-Version when the header is missing", async () => {
    const res = await post(modernCall(3, "fetch", { id: artifactId }), { "Mcp-Method": "tools/call", "Mcp-Name": "fetch" });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({ code: -32020, message: expect.stringContaining("MCP-Protocol-Version header is absent") });
  });

  it("answers 400 naming Mcp-Method when the header is missing", async () => {
    const res = await post(modernCall(4, "fetch", { id: artifactId }), { "MCP-Protocol-Version": REVISION, "Mcp-Name": "fetch" });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({ code: -32020, message: expect.stringContaining("Mcp-Method header is absent") });
  });

  it("answers 400 when Mcp-Method names another method than the body", async () => {
    const res = await post(modernCall(5, "fetch", { id: artifactId }), modernHeaders("tools/list", "fetch"));
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toContain("the body names method tools/call but the Mcp-Method header names tools/list");
  });

  it("answers 400 when Mcp-Name is missing from a tools/call, or names another tool", async () => {
    const missing = await post(modernCall(6, "fetch", { id: artifactId }), modernHeaders("tools/call"));
    expect(missing.status).toBe(400);
    expect((await json(missing)).error.message).toContain("Mcp-Name header is absent");
    const other = await post(modernCall(7, "fetch", { id: artifactId }), modernHeaders("tools/call", "search"));
    expect(other.status).toBe(400);
    expect((await json(other)).error.message).toContain('the Mcp-Name header names "search"');
  });

  it("answers 400 listing the revisions it serves to a request for a newer one", async () => {
    const body = { jsonrpc: "2.0", id: 8, method: "tools/list", params: { _meta: { ...envelope(), "io.modelcontextprotocol/protocolVersion": "2099-01-01" } } };
    const res = await post(body, { "MCP-Protocol-Version": "2099-01-01", "Mcp-Method": "tools/list" });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({ data: { supported: [REVISION], requested: "2099-01-01" } });
  });

  it("acknowledges subscriptions/listen with nothing to notify, and ends the stream at once", async () => {
    const res = await fetch(`${http.baseUrl}/mcp`, {
      method: "POST",
      signal: AbortSignal.timeout(5_000),
      headers: { ...MCP_HEADERS, ...ws.auth, ...modernHeaders("subscriptions/listen") },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { _meta: envelope(), notifications: { toolsListChanged: true } } }),
    });
    const stream = await res.text();
    expect(stream).toContain('"method":"notifications/subscriptions/acknowledged","params":{"notifications":{}');
    expect(stream).toContain('"id":1,"result":{"resultType":"complete"');
  });

  it("answers 415 to a body that is not declared as JSON", async () => {
    const res = await fetch(`${http.baseUrl}/mcp`, {
      method: "POST",
      headers: { ...ws.auth, ...modernHeaders("tools/list"), Accept: MCP_HEADERS.Accept, "Content-Type": "text/plain" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list", params: { _meta: envelope() } }),
    });
    expect(res.status).toBe(415);
  });
});

describe("bodies that are not one JSON-RPC message", () => {
  it.each([
    ["null", "null"],
    ["a number", "42"],
    ["an empty object", "{}"],
    ["deeply nested objects", `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`],
    ["nothing", ""],
  ])("answers %s with a 400 JSON-RPC error, never a 500", async (_label, body) => {
    const res = await fetch(`${http.baseUrl}/mcp`, { method: "POST", headers: { ...MCP_HEADERS, ...ws.auth }, body });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({ code: expect.any(Number), message: expect.any(String) });
  });
});

describe("batches", () => {
  const legacyBatch = Array.from({ length: 3 }, (_, i) => ({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "search", arguments: { query: "footfall" } } }));

  it("refuses a JSON-RPC batch with 400 and a sentence, before any call in it runs", async () => {
    const res = await post(legacyBatch, { "MCP-Protocol-Version": "2025-06-18" });
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({
      error: "JSON-RPC batches are not accepted on /mcp: send one JSON-RPC message per POST (MCP has no batches since revision 2025-06-18)",
      code: "bad_request",
    });
  });

  it("refuses a batch of revision 2026-07-28 requests too", async () => {
    const res = await post([modernCall(1, "search", { query: "footfall" }), modernCall(2, "fetch", { id: artifactId })], modernHeaders("tools/call", "search"));
    expect(res.status).toBe(400);
    expect((await json(res)).code).toBe("bad_request");
  });

  it("leaves one request as the most a POST can spend of the key's budget", async () => {
    const before = remaining(await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, { "MCP-Protocol-Version": "2025-11-25" }));
    const batch = await post(Array.from({ length: 100 }, () => legacyBatch[0]), { "MCP-Protocol-Version": "2025-11-25" });
    expect(batch.status).toBe(400);
    expect(remaining(batch)).toBe(before - 1);
  });
});

describe("Origin", () => {
  it("answers 403 naming the origin to a page on another site, before looking at the key", async () => {
    const res = await fetch(`${http.baseUrl}/mcp`, {
      method: "POST",
      headers: { ...MCP_HEADERS, Origin: "https://evil.example" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(403);
    expect(await json(res)).toEqual({
      error: `Origin "https://evil.example" is not allowed to call /mcp: browser pages may call it only from ${http.baseUrl}; MCP clients outside a browser send no Origin header`,
      code: "forbidden",
    });
  });

  it("answers 403 to the opaque origin null (sandboxed frames, local files)", async () => {
    const res = await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, { Origin: "null" });
    expect(res.status).toBe(403);
  });

  it("answers 403 to the same host on another port", async () => {
    const res = await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, { Origin: "http://127.0.0.1:1" });
    expect(res.status).toBe(403);
  });

  it("serves a request from the service's own origin, and one without Origin", async () => {
    const own = await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, { Origin: http.baseUrl, "MCP-Protocol-Version": "2025-11-25" });
    expect(own.status).toBe(200);
    const none = await post({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, { "MCP-Protocol-Version": "2025-11-25" });
    expect(none.status).toBe(200);
  });

  it("answers 403 to a rebound name, whose page and Host header agree", async () => {
    // DNS rebinding: evil.example now resolves to this server, so the page's requests carry
    // Origin and Host of evil.example. fetch cannot set Host; a raw request can.
    const { port } = new URL(http.baseUrl);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port, path: "/mcp", method: "POST", headers: { ...MCP_HEADERS, Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }));
    });
    expect(status).toBe(403);
  });

  it("serves a request from PUBLIC_BASE_URL's origin", async () => {
    const app = buildApp({ services: t.services, logger: createLogger("silent"), publicBaseUrl: "https://intelligence.example.com/base/" });
    const configured = await listen(app);
    try {
      const res = await post(
        { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
        { Origin: "https://intelligence.example.com", "MCP-Protocol-Version": "2025-11-25" },
        configured.baseUrl,
      );
      expect(res.status).toBe(200);
    } finally {
      await configured.close();
    }
  });
});
