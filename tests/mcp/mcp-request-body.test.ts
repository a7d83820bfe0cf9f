import { gzipSync } from "node:zlib";
import { validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { listen, type ListeningApp, MCP_HEADERS } from "../support/mcp-client";
import { createTestApp, type TestApp } from "../support/test-app";

// Raw bytes on purpose: each spelling below is one the SDK's client never writes, and each must be
// read as the endpoint's checks read it, since the SDK is handed what they decided and never the bytes.

let t: TestApp;
let http: ListeningApp;
let ws: WorkspaceWithKey;
let artifactId: string;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON bodies are checked by matchers
const json = async (res: Response): Promise<any> => res.json();

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const BATCH_REFUSAL = "JSON-RPC batches are not accepted on /mcp/key: send one JSON-RPC message per POST (MCP has no batches since revision 2025-06-18)";

const search = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search", arguments: { query: "footfall" } } });
const hundredSearches = () => Array.from({ length: 100 }, (_, i) => search(i + 1));
const utf8 = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8");

function postBytes(body: Buffer, headers: Record<string, string> = {}) {
  return fetch(`${http.baseUrl}/mcp/key`, {
    method: "POST",
    headers: { ...MCP_HEADERS, ...ws.auth, "MCP-Protocol-Version": "2025-11-25", ...headers },
    body: new Uint8Array(body),
  });
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

describe("a batch in any spelling the JSON reader accepts", () => {
  it.each([
    ["behind a UTF-8 byte-order mark", Buffer.concat([BOM, utf8(hundredSearches())])],
    ["behind whitespace and line breaks", Buffer.concat([Buffer.from(" \r\n\t "), utf8(hundredSearches())])],
    ["behind a byte-order mark and whitespace", Buffer.concat([BOM, Buffer.from("\n  "), utf8(hundredSearches())])],
    ["with whitespace between its messages", Buffer.from(`[ ${hundredSearches().map((message) => JSON.stringify(message)).join(" ,\n ")} ]`)],
  ])("is refused %s with 400 naming the rule, for one request of the key's budget", async (_label, body) => {
    const before = remaining(await postBytes(utf8({ jsonrpc: "2.0", id: 1, method: "ping" })));
    const res = await postBytes(body);
    expect(res.status).toBe(400);
    expect(await json(res)).toEqual({ error: BATCH_REFUSAL, code: "bad_request" });
    expect(remaining(res)).toBe(before - 1);
  });

  it("is refused when declared utf-8 and sent with a byte-order mark", async () => {
    const res = await postBytes(Buffer.concat([BOM, utf8(hundredSearches())]), { "Content-Type": "application/json; charset=UTF-8" });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe(BATCH_REFUSAL);
  });

  it("is refused when gzip-compressed, as read after inflating", async () => {
    const res = await postBytes(gzipSync(Buffer.concat([BOM, utf8(hundredSearches())])), { "Content-Encoding": "gzip" });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe(BATCH_REFUSAL);
  });
});

describe("one message in the same spellings", () => {
  it("is served behind a byte-order mark and whitespace, as the reader that refuses batches reads it", async () => {
    const res = await postBytes(Buffer.concat([BOM, Buffer.from("\r\n "), utf8({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "fetch", arguments: { id: artifactId } } })]));
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ id: 7, result: { structuredContent: { id: artifactId } } });
  });
});

describe("bodies in another encoding than UTF-8", () => {
  const utf16le = (value: unknown) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(value), "utf16le")]);
  const utf16be = (value: unknown) => {
    const bytes = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(JSON.stringify(value), "utf16le")]);
    for (let i = 0; i < bytes.length; i += 2) [bytes[i], bytes[i + 1]] = [bytes[i + 1]!, bytes[i]!];
    return bytes;
  };

  it.each([
    ["a UTF-16LE batch", utf16le(hundredSearches())],
    ["a UTF-16BE batch", utf16be(hundredSearches())],
    ["a UTF-16LE message", utf16le(search(1))],
  ])("answers %s with no charset declared with JSON-RPC's parse error, and runs nothing", async (_label, body) => {
    const res = await postBytes(body);
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 }, id: null });
  });

  it("answers a body declared in charset utf-16 with 415 naming the charset, before reading it", async () => {
    const res = await postBytes(utf16le(hundredSearches()), { "Content-Type": "application/json; charset=utf-16" });
    expect(res.status).toBe(415);
    expect(await json(res)).toEqual({
      error: 'Charset "utf-16" is not supported: send the JSON body as utf-8 (Content-Type: application/json; charset=utf-8)',
      code: "unsupported_media_type",
    });
  });

  it("answers bytes that are not valid UTF-8 with the parse error rather than running an altered message", async () => {
    // 0xC3 opens a two-byte sequence that never comes: a lenient decoder would search for "foot\uFFFDfall".
    const [head, tail] = JSON.stringify(search(1)).split("footfall") as [string, string];
    const res = await postBytes(Buffer.concat([Buffer.from(`${head}foot`), Buffer.from([0xc3]), Buffer.from(`fall${tail}`)]));
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ error: { code: -32700 } });
  });

  it("answers a batch not declared as JSON with 415, and runs nothing", async () => {
    const res = await postBytes(utf8(hundredSearches()), { "Content-Type": "text/plain" });
    expect(res.status).toBe(415);
  });
});
