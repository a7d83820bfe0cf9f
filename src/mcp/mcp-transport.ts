import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type McpServer,
} from "@modelcontextprotocol/server";
import type { Request, Response } from "express";
import type { McpRequestBody } from "./mcp-request-body";

/** Builds the server that answers one request (the caller's tools); called once per request. */
export type McpServerForRequest = () => McpServer;

// Tool calls are a few hundred bytes; the REST API's body limit is plenty.
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/**
 * Serves one POST of the Streamable HTTP transport, statelessly, in both protocol eras:
 *
 * - revision 2026-07-28 (a `_meta` envelope on every request, `server/discover`, the
 *   `MCP-Protocol-Version`/`Mcp-Method`/`Mcp-Name` headers checked against the body) through the
 *   SDK's `createMcpHandler`, strict (`legacy: "reject"`);
 * - the 2025 revisions (`initialize`, then requests without an envelope) through the SDK's
 *   stateless Streamable HTTP transport with JSON answers, as before the 2026 revision. The SDK's
 *   own fallback would answer them as event streams; routing with its `isLegacyRequest` keeps the
 *   answers JSON and lets the two legs never disagree on which era a request belongs to.
 *
 * Both legs build their server from the same factory, so the tools cannot differ between eras.
 */
export function createMcpTransport() {
  // The handler is built once per endpoint, not per request, so the request's server travels with
  // the web Request, which the handler hands back to its factory as `requestInfo`.
  const servers = new WeakMap<globalThis.Request, McpServerForRequest>();
  const modern = createMcpHandler(
    ({ requestInfo }) => {
      const build = requestInfo && servers.get(requestInfo);
      if (!build) throw new Error("MCP request arrived without its server");
      return build();
    },
    { legacy: "reject", maxRequestBodySize: MAX_REQUEST_BODY_BYTES },
  );

  return async function serve(req: Request, res: Response, body: McpRequestBody, buildServer: McpServerForRequest): Promise<void> {
    // The SDK is given the message as read (mcp-request-body.ts) and a request with no bytes: a body
    // that was not JSON reaches it empty, which it answers as every client expects (415 when not
    // declared as JSON, else JSON-RPC's parse error), and it can never read one differently.
    const request = new globalThis.Request(urlOf(req), { method: "POST", headers: headersOf(req) });
    const parsedBody = body.isJson ? body.json : undefined;
    const options = body.isJson ? { parsedBody } : {};
    if (await isLegacyRequest(request, parsedBody, { maxRequestBodySize: MAX_REQUEST_BODY_BYTES })) {
      const server = buildServer();
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
        maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
      });
      try {
        await server.connect(transport);
        await send(await transport.handleRequest(request, options), res);
      } finally {
        await transport.close().catch(() => undefined);
        await server.close().catch(() => undefined);
      }
      return;
    }
    servers.set(request, buildServer);
    await send(await modern.fetch(request, options), res);
  };
}

// The SDK reads only the path of this address; a Host header URL cannot parse must not become a 500.
function urlOf(req: Request): URL {
  try {
    return new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`);
  } catch {
    return new URL(req.originalUrl, "http://localhost");
  }
}

function headersOf(req: Request): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      // A value Headers refuses reaches the SDK as absent, which it answers as a missing header (400).
      try {
        headers.append(name, item);
      } catch {
        continue;
      }
    }
  }
  // The request handed on carries no bytes, whatever the client's framing (mcp-request-body.ts).
  headers.delete("content-length");
  headers.delete("transfer-encoding");
  headers.delete("content-encoding");
  return headers;
}

// Streamed rather than buffered: in revision 2026-07-28 an answer may be an event stream (a
// subscription, or a result preceded by notifications), and a client that leaves cancels it.
async function send(response: globalThis.Response, res: Response): Promise<void> {
  res.status(response.status);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) {
    res.end();
    return;
  }
  const body = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
  res.on("close", () => body.destroy());
  await pipeline(body, res).catch(() => undefined);
}
