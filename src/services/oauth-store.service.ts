import { createHash } from "node:crypto";
import type { Clock } from "../lib/clock";
import type { OAuthRecordRepository } from "../repositories/oauth-record.repository";

/**
 * Record kinds whose id is a bearer secret or stands for one (a session id is a cookie value):
 * only its SHA-256 is stored, as with API keys. Clients, grants and interactions keep their ids.
 */
const SECRET_KINDS = new Set([
  "AccessToken",
  "AuthorizationCode",
  "RefreshToken",
  "ClientCredentials",
  "InitialAccessToken",
  "RegistrationAccessToken",
  "DeviceCode",
  "BackchannelAuthenticationRequest",
  "PushedAuthorizationRequest",
  "PreAuthorizedCode",
  "Session",
]);

/**
 * A client registered by DCR that nobody approves within this time is forgotten: registration is
 * open to anyone, so only clients a person has connected are kept.
 */
export const UNAPPROVED_CLIENT_TTL_SECONDS = 24 * 60 * 60;

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

export const keyOf = (kind: string, id: string) => (SECRET_KINDS.has(kind) ? sha256(id) : id);

/** A secret record's payload names its own id (`jti`, the opaque token itself): it is left out, and put back on lookup by id. */
function storable(kind: string, payload: Record<string, unknown>): Record<string, unknown> {
  if (!SECRET_KINDS.has(kind)) return payload;
  const { jti: _id, ...rest } = payload;
  return rest;
}

export interface OAuthStoreServiceDeps {
  records: OAuthRecordRepository;
  clock: Clock;
}

/** The authorization server's storage, by record kind; what src/oauth/storage-adapter.ts hands it. */
export function createOAuthStoreService({ records, clock }: OAuthStoreServiceDeps) {
  const withConsumed = (row: { payload: Record<string, unknown>; consumedAt: Date | null } | null) =>
    row ? { ...row.payload, ...(row.consumedAt ? { consumed: Math.floor(row.consumedAt.getTime() / 1000) } : {}) } : undefined;

  return {
    async upsert(kind: string, id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
      const expiresInSeconds = expiresIn || (kind === "Client" ? UNAPPROVED_CLIENT_TTL_SECONDS : undefined);
      await records.upsert(kind, keyOf(kind, id), {
        payload: storable(kind, payload),
        grantId: typeof payload.grantId === "string" ? payload.grantId : undefined,
        uid: typeof payload.uid === "string" ? payload.uid : undefined,
        expiresAt: expiresInSeconds ? new Date(clock.now().getTime() + expiresInSeconds * 1000) : undefined,
      });
    },
    async find(kind: string, id: string): Promise<Record<string, unknown> | undefined> {
      const found = withConsumed(await records.find(kind, keyOf(kind, id), clock.now()));
      return found && SECRET_KINDS.has(kind) ? { ...found, jti: id } : found;
    },
    async findByUid(kind: string, uid: string): Promise<Record<string, unknown> | undefined> {
      return withConsumed(await records.findByUid(kind, uid, clock.now()));
    },
    consume: (kind: string, id: string) => records.consume(kind, keyOf(kind, id), clock.now()),
    destroy: (kind: string, id: string) => records.destroy(kind, keyOf(kind, id)),
    revokeByGrantId: (grantId: string) => records.destroyByGrant(grantId),
    /** A client someone approved is kept for as long as it is registered. */
    keepClient: (clientId: string) => records.clearExpiry("Client", keyOf("Client", clientId)),
    /** Clients registered and not expired: what registration is capped by. */
    registeredClients: () => records.countLive("Client", clock.now()),
  };
}

export type OAuthStoreService = ReturnType<typeof createOAuthStoreService>;
