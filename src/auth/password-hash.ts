import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * scrypt from node:crypto, N = 2^16, r = 8, p = 1 (64 MiB and ≈150 ms a hash on this hardware),
 * 16-byte salt, 32-byte key. The parameters travel inside the stored string, so raising them later
 * only affects new hashes and old ones still verify.
 */
const PARAMETERS = { N: 2 ** 16, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is below that for N = 2^16.
  const scryptOptions: ScryptOptions = { ...options, maxmem: 128 * options.N * options.r + 1024 * 1024 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, scryptOptions, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMETERS);
  const { N, r, p } = PARAMETERS;
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(password, Buffer.from(salt, "base64url"), { N: Number(N), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash of no one's password, verified against when the email is unknown so timing does not tell. */
let decoy: Promise<string> | undefined;
export const decoyPasswordHash = (): Promise<string> => (decoy ??= hashPassword(randomBytes(18).toString("base64url")));
