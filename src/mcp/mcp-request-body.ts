import { isJsonContentType } from "@modelcontextprotocol/server";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { ApiError } from "../http/api-error";
import { JSON_BODY_LIMIT, refuseNonUtf8Charset } from "../http/body-errors";

/**
 * The body of an MCP POST, read once: `json` holds the value when the body is JSON, and is absent
 * when it is not (not declared as JSON, not UTF-8, not parseable). Every check of the endpoint and
 * the SDK itself get this value, never the bytes, so no two readers can disagree on what a body
 * is: a check that failed to parse a byte-order mark the SDK skips once let a batch through.
 */
export type McpRequestBody = { readonly isJson: true; readonly json: unknown } | { readonly isJson: false };

// RFC 8259 lets a reader ignore a byte-order mark, and the REST API's reader does: TextDecoder
// drops it (ignoreBOM: false). `fatal` makes bytes that are not UTF-8 a body that is not JSON,
// rather than a message whose text was altered by replacement characters.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Decides what a body is; `contentType` is the request's header, decided by the SDK's own rule. */
export function readMcpRequestBody(contentType: string | undefined, bytes: Buffer): McpRequestBody {
  if (!isJsonContentType(contentType) || bytes.length === 0) return { isJson: false };
  try {
    return { isJson: true, json: JSON.parse(UTF8.decode(bytes)) };
  } catch {
    return { isJson: false };
  }
}

/**
 * The endpoint's body reading: the charset check, the bytes (inflated, at most 1 MiB), then the one
 * decision of what they are, kept for the checks after it (`mcpRequestBodyOf`) and the transport.
 * A batch is refused here, before any check or server sees it.
 */
export function mcpRequestBody(path: string): RequestHandler[] {
  return [
    refuseNonUtf8Charset,
    express.raw({ type: () => true, limit: JSON_BODY_LIMIT }),
    (req: Request, res: Response, next: NextFunction) => {
      const body = readMcpRequestBody(req.get("content-type"), Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
      // A batch would run many tool calls for one request against the key's rate limit. Batching
      // left MCP in revision 2025-06-18 and the 2026 revision has none, so every client sends one
      // message per POST.
      if (body.isJson && Array.isArray(body.json)) {
        throw new ApiError(
          "bad_request",
          `JSON-RPC batches are not accepted on ${path}: send one JSON-RPC message per POST (MCP has no batches since revision 2025-06-18)`,
        );
      }
      res.locals.mcpRequestBody = body;
      next();
    },
  ];
}

/** The body as `mcpRequestBody` read it; a request it has not read is treated as not JSON. */
export function mcpRequestBodyOf(res: Response): McpRequestBody {
  return (res.locals.mcpRequestBody as McpRequestBody | undefined) ?? { isJson: false };
}
