import { randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** `length` random base62 characters, without modulo bias (bytes >= 248 are redrawn). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Opaque, deployment-unique ids with a prefix that tells a human what they point at. */
export function newId(prefix: "org" | "ws" | "key" | "art" | "mem" | "dir" | "ds" | "qp" | "el" | "skl" | "skf" | "idem" | "rev" | "ses"): string {
  return `${prefix}_${randomBase62(22)}`;
}

const TIME_WIDTH = 8; // 62^8 ms ≈ 6,900 years
const SEQUENCE_WIDTH = 3;
let lastMs = 0;
let sequence = 0;

function base62(value: number, width: number): string {
  let out = "";
  for (let rest = value; rest > 0; rest = Math.floor(rest / 62)) out = BASE62[rest % 62] + out;
  return out.padStart(width, "0");
}

/**
 * An id whose text sorts in creation order within this process (time, then a sequence for ids
 * made in the same millisecond), so that "newest first" is well defined even for ties in time.
 */
export function newSortableId(prefix: "art", at: Date): string {
  const ms = Math.max(at.getTime(), lastMs);
  sequence = ms === lastMs ? sequence + 1 : 0;
  lastMs = ms;
  return `${prefix}_${base62(ms, TIME_WIDTH)}${base62(sequence, SEQUENCE_WIDTH)}${randomBase62(11)}`;
}
