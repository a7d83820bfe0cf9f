import { hash } from "node:crypto";
import type { Request, Response } from "express";
import { sendJsonText } from "./json-answer";

// Digests by one call (crypto.hash), not a Hash object fed and read: the same digest, less of a
// request's CPU (docs/performance.md, "What each change bought").

/** A strong entity tag: the same bytes give the same tag on every process, so no state is kept. */
export function strongEntityTag(bytes: Uint8Array): string {
  return `"${hash("sha256", bytes, "base64url")}"`;
}

/**
 * Strong entity tags for a representation that what is stored fixes: the same `stored` version
 * (say an id and when its row was written) in the same `representation` (the answer's schema and
 * form) gives the same bytes, so the tag is known without making or hashing them. The
 * representation (kilobytes of schema) is hashed once, not on every answer.
 */
export function storedEntityTag(representation: string): (stored: readonly string[]) => string {
  const form = hash("sha256", representation, "base64url");
  return (stored) => `"${hash("sha256", [form, ...stored].join("\u0000"), "base64url")}"`;
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
 * The tag is the hash of the bytes sent, or `entityTag` when the route knows the representation's
 * tag from what is stored (a fetched artifact): then a 304 writes nothing and a 200 hashes nothing.
 */
export function sendJsonConditionally(req: Request, res: Response, text: () => string, entityTag?: string): void {
  const bytes = entityTag === undefined ? Buffer.from(text()) : undefined;
  const etag = entityTag ?? strongEntityTag(bytes!);
  res.set("ETag", etag);
  if (ifNoneMatchMatches(req.get("if-none-match"), etag)) {
    res.status(304).end();
    return;
  }
  sendJsonText(res, 200, bytes ?? text());
}
