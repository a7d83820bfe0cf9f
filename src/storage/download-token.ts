import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** What a signed download link grants: one stored key, served under a name and type, until a time. */
export interface DownloadGrant {
  key: string;
  filename: string;
  contentType: string;
  /** Seconds since the Unix epoch. */
  expiresAt: number;
}

export type VerifiedDownload = { ok: true; grant: DownloadGrant } | { ok: false; reason: "invalid" | "expired" };

/**
 * Download tokens: the grant as base64url JSON, a dot, and an HMAC-SHA256 of that text. Without a
 * configured secret a random one is made per process, so links stop working when it restarts.
 */
export function createDownloadSigner(secret: string | undefined) {
  const key = secret ?? randomBytes(32);
  const mac = (payload: string) => createHmac("sha256", key).update(payload).digest();
  return {
    sign(grant: DownloadGrant): string {
      const payload = Buffer.from(JSON.stringify([grant.key, grant.filename, grant.contentType, grant.expiresAt])).toString("base64url");
      return `${payload}.${mac(payload).toString("base64url")}`;
    },

    verify(token: string, now: Date): VerifiedDownload {
      const [payload, signature, extra] = token.split(".");
      if (!payload || !signature || extra !== undefined) return { ok: false, reason: "invalid" };
      const expected = mac(payload);
      const given = Buffer.from(signature, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
      const [grantKey, filename, contentType, expiresAt] = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as [
        string,
        string,
        string,
        number,
      ];
      if (now.getTime() / 1000 >= expiresAt) return { ok: false, reason: "expired" };
      return { ok: true, grant: { key: grantKey, filename, contentType, expiresAt } };
    },
  };
}

export type DownloadSigner = ReturnType<typeof createDownloadSigner>;
