import { createHash, hash, timingSafeEqual } from "node:crypto";
import { randomBase62 } from "../lib/ids";

export const API_KEY_PREFIX = "wsi_";
const SECRET_LENGTH = 40;

/** A new secret: the recognisable prefix plus 40 random base62 characters (≈238 bits). */
export function generateApiKeySecret(): string {
  return `${API_KEY_PREFIX}${randomBase62(SECRET_LENGTH)}`;
}

/** Only this digest is stored; a fast hash suffices because the secret has ~238 bits of entropy. */
export function hashApiKeySecret(secret: string): string {
  // One call, no Hash object: made on every request that carries a key.
  return hash("sha256", secret, "hex");
}

/** The first characters a listing may show so that a human can tell keys apart. */
export function displayStart(secret: string): string {
  return secret.slice(0, API_KEY_PREFIX.length + 4);
}

/** Equality in time that does not depend on where the inputs differ (digests have equal length). */
export function constantTimeEqual(a: string, b: string): boolean {
  const digestA = createHash("sha256").update(a, "utf8").digest();
  const digestB = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(digestA, digestB);
}
