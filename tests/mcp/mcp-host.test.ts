import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { buildApp } from "../../src/app";
import { createLogger } from "../../src/lib/logger";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { listen, type ListeningApp, MCP_HEADERS } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

// DNS rebinding: a page on evil.example whose name now resolves to this machine sends its requests
// with Host evil.example. fetch cannot set Host; a raw request can.

let t: TestApp;
let http: ListeningApp;
let ws: WorkspaceWithKey;
let port: string;

const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

interface Answer {
  status: number;
  body: string;
}

function postWithHost(baseUrl: string, path: string, host: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: "POST", headers: { ...MCP_HEADERS, "MCP-Protocol-Version": "2025-11-25", ...headers, Host: host } },
      (res) => {
        let body = "";
        res.on("data", (chunk) => (body += String(chunk)));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(ping);
  });
}

/** An HTTP/1.0 request, which may come without a Host header (HTTP/1.1 servers refuse that themselves). */
function postWithoutHost(path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let raw = "";
    socket.on("data", (chunk) => (raw += String(chunk)));
    socket.on("end", () => {
      const [head = "", body = ""] = raw.split("\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.\d (\d{3})/.exec(head)?.[1] ?? 0), body });
    });
    socket.on("error", reject);
    const lines = Object.entries({ ...MCP_HEADERS, "MCP-Protocol-Version": "2025-11-25", ...headers, "Content-Length": String(Buffer.byteLength(ping)) }).map(([name, value]) => `${name}: ${value}`);
    socket.end(`POST ${path} HTTP/1.0\r\n${lines.join("\r\n")}\r\n\r\n${ping}`);
  });
}

const refusal = (host: string, path: string) => ({
  error: `Host ${JSON.stringify(host)} is not allowed to call ${path}: without PUBLIC_BASE_URL the service answers MCP only at localhost, 127.0.0.1 or [::1], so that a web page whose name is rebound to this machine cannot reach it; set PUBLIC_BASE_URL to the address clients use to reach the service`,
  code: "forbidden",
});

beforeAll(async () => {
  t = await createTestApp();
  http = await listen(t.app);
  port = new URL(http.baseUrl).port;
  ws = await createWorkspaceWithKey(t.services);
});

afterAll(async () => {
  await http.close();
  await t.close();
});

describe("without PUBLIC_BASE_URL", () => {
  it.each(["/mcp", "/mcp/key"])("refuses a foreign Host with no Origin on %s with 403 naming the Host, even with a valid key", async (path) => {
    const host = `evil.example:${port}`;
    const res = await postWithHost(http.baseUrl, path, host, ws.auth);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual(refusal(host, path));
  });

  it("refuses a foreign Host before looking at the key", async () => {
    const res = await postWithHost(http.baseUrl, "/mcp/key", "evil.example");
    expect(res.status).toBe(403);
  });

  it.each(["localhost.evil.example:3000", "127.0.0.1.nip.io", "192.168.1.20:3000", "0.0.0.0:3000"])("refuses the look-alike or network name %s", async (host) => {
    const res = await postWithHost(http.baseUrl, "/mcp/key", host, ws.auth);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual(refusal(host, "/mcp/key"));
  });

  it.each(["localhost", "LOCALHOST", "127.0.0.1", "[::1]"])("serves the loopback name %s on any port, as a container's port mapping may present it", async (name) => {
    for (const host of [`${name}:${port}`, `${name}:1`, name]) {
      const res = await postWithHost(http.baseUrl, "/mcp/key", host, ws.auth);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ id: 1, result: {} });
    }
  });

  it("refuses a request that names no Host at all", async () => {
    const res = await postWithoutHost("/mcp/key", ws.auth);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toMatch(/^A request without a Host header is not allowed to call \/mcp\/key: .*set PUBLIC_BASE_URL/);
  });

  it("refuses a foreign Host on GET too, before the 405 of a stateless server", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, path: "/mcp", method: "GET", headers: { Host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe("with PUBLIC_BASE_URL", () => {
  it("serves whatever Host a router or proxy in front presents, leaving browsers to the Origin rule", async () => {
    const app = buildApp({ services: t.services, logger: createLogger("silent"), publicBaseUrl: "https://intelligence.example.com" });
    const configured = await listen(app);
    try {
      for (const host of ["intelligence.example.com", "internal-upstream:3000", "127.0.0.1:3000"]) {
        const res = await postWithHost(configured.baseUrl, "/mcp/key", host, ws.auth);
        expect(res.status).toBe(200);
      }
      const page = await postWithHost(configured.baseUrl, "/mcp/key", "intelligence.example.com", { ...ws.auth, Origin: "https://evil.example" });
      expect(page.status).toBe(403);
    } finally {
      await configured.close();
    }
  });
});
