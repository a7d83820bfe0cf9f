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
export function newId(prefix: "org" | "ws" | "key" | "art" | "mem" | "dir" | "ds" | "qp" | "el" | "skl" | "skf" | "idem"): string {
  return `${prefix}_${randomBase62(22)}`;
}
