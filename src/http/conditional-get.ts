import { createHash } from "node:crypto";
import type { Request, Response } from "express";

/** A strong entity tag: the same bytes give the same tag on every process, so no state is kept. */
export function strongEntityTag(bytes: Uint8Array): string {
  return `"${createHash("sha256").update(bytes).digest("base64url")}"`;
}

/**
 * Whether `If-None-Match` names the current tag. GET uses the weak comparison (RFC 9110 §13.1.2):
 * a `W/` prefix is ignored, and `*` matches any current representation.
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}

/**
 * Sends a JSON 200 with its `ETag`, or a bodiless 304 when the client already holds those bytes.
 * The body is serialised once and hashed once: the bytes hashed are the bytes sent.
 */
export function sendJsonConditionally(req: Request, res: Response, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  const etag = strongEntityTag(bytes);
  res.set("ETag", etag);
  if (ifNoneMatchMatches(req.get("if-none-match"), etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).type("application/json").send(bytes);
}
