import { generateKeyPairSync, randomBytes } from "node:crypto";
import { rootCertificates } from "node:tls";
import { Agent, fetch as undiciFetch } from "undici";
import type { Request } from "express";
import type Provider from "oidc-provider";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { READ_SCOPES } from "../auth/scopes";
import { escapeHtml } from "../lib/escape-html";
import { MCP_PATH } from "../mcp/mcp-names";
import type { Logger } from "../lib/logger";
import type { Services } from "../services";
import { storageAdapter } from "./storage-adapter";

/** Where the authorization server answers; its issuer is this path on the public address. */
export const OAUTH_PATH = "/oauth";
/** The OAuth-protected MCP resource for hosted connectors; /mcp stays key-only. */
/** Where the consent page of an interaction is, in the console. */
export const CONSENT_PATH = "/console/connect";

export const TTL_SECONDS = {
  // One-time and short: the client exchanges it at once.
  AuthorizationCode: 60,
  AccessToken: 60 * 60,
  // Rotated on each use; a client that stays away this long signs in again.
  RefreshToken: 30 * 24 * 60 * 60,
  Grant: 365 * 24 * 60 * 60,
  // The consent page: long enough to sign in first.
  Interaction: 15 * 60,
  // The authorization server's own sign-in state; the console session is what counts.
  Session: 15 * 60,
} as const;

export interface AuthorizationServerOptions {
  services: Services;
  logger: Logger;
  /** PUBLIC_BASE_URL: the issuer and resource are named on it. Without it, on the address a request used. */
  publicBaseUrl?: string;
  /** Signs the authorization server's cookies; SIGNING_SECRET, so that every process reads them. */
  cookieSecret?: string;
  trustProxy?: boolean | number | string;
  /** Most clients registered at once; registration answers 503 beyond it. */
  maxClients?: number;
  /**
   * A CA (PEM) trusted, besides the public ones, for Client ID Metadata Documents: for a private
   * deployment whose clients publish theirs inside it. Fetches then may reach private addresses.
   */
  clientMetadataCa?: string;
}

export interface AuthorizationServer {
  provider(req: Request): Promise<Provider>;
  baseUrl(req: Request): string;
  issuer(req: Request): string;
  /** The absolute URL of /mcp: the only audience tokens are issued for. */
  resource(req: Request): string;
  /** The Protected Resource Metadata of /mcp (RFC 9728). */
  resourceMetadataUrl(req: Request): string;
  maxClients: number;
}

export const DEFAULT_MAX_CLIENTS = 10_000;

// Without PUBLIC_BASE_URL (a local embedded setup), one issuer per address the server is reached
// at (localhost, 127.0.0.1…), and no more than this many, so that Host headers cannot grow it.
const MAX_ISSUERS = 4;

/**
 * panva's oidc-provider (OpenID certified) as the OAuth 2.1 authorization server of the connector
 * MCP resource: authorization code with PKCE (S256), dynamic client registration, resource
 * indicators binding every token to /mcp, rotating refresh tokens whose reuse revokes
 * the grant, `iss` in authorization responses. The consent interaction is the console's.
 */
export function createAuthorizationServer(options: AuthorizationServerOptions): AuthorizationServer {
  const cookieKeys = [options.cookieSecret ?? randomBytes(32).toString("base64url")];
  const providers = new Map<string, Promise<Provider>>();
  const baseUrl = (req: Request) => (options.publicBaseUrl ?? `${req.protocol}://${req.get("host")}`).replace(/\/+$/, "");

  // oidc-provider fetches with an agent that refuses private and loopback addresses; a configured
  // CA means documents served inside the deployment, so this agent replaces it.
  const privateAgent = options.clientMetadataCa ? new Agent({ connect: { ca: [...rootCertificates, options.clientMetadataCa] } }) : undefined;
  const fetchDocument: Configuration["fetch"] = privateAgent
    ? (input, init) => undiciFetch(String(input), { ...(init as object), dispatcher: privateAgent }) as unknown as Promise<Response>
    : undefined;

  async function build(base: string): Promise<Provider> {
    const { default: ProviderClass, errors } = await import("oidc-provider");
    const resource = `${base}${MCP_PATH}`;
    // Signs nothing a resource relies on (access tokens are opaque and no ID token is issued:
    // `openid` is never granted), so a key per process suffices.
    const signingKey = { ...generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }), use: "sig", alg: "RS256" };
    const configuration: Configuration = {
      adapter: storageAdapter(options.services.oauthStore),
      clients: [],
      // An account is a console account; what it may reach is decided at consent, per workspace.
      findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
      // Known to the server too, so that registration (RFC 7591 `scope`) and metadata accept them;
      // tokens carry them for the resource (getResourceServerInfo).
      scopes: [...READ_SCOPES],
      claims: { openid: ["sub"] },
      responseTypes: ["code"],
      // A connector that names no grant types still gets refresh tokens, or it would ask the person again every hour.
      clientDefaults: { grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic", id_token_signed_response_alg: "RS256" },
      clientAuthMethods: ["none", "client_secret_basic", "client_secret_post"],
      pkce: { required: () => true },
      allowOmittingSingleRegisteredRedirectUri: false,
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true },
        // A client id may be an https URL of its metadata (MCP's preferred registration): fetched
        // with a 2.5 s timeout and a 5 KB cap, validated, and cached in memory (not stored) within these bounds.
        clientIdMetadataDocument: { enabled: true, ack: "draft-02", cacheDuration: { min: 60, max: 24 * 60 * 60 } },
        revocation: { enabled: true },
        userinfo: { enabled: false },
        rpInitiatedLogout: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (indicator !== resource) throw new errors.InvalidTarget(`tokens are issued for ${resource} only`);
            return { scope: READ_SCOPES.join(" "), audience: resource, accessTokenFormat: "opaque", accessTokenTTL: TTL_SECONDS.AccessToken };
          },
        },
      },
      // Every client gets a refresh token; it rotates on each use, and a reused one revokes the grant.
      issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
      rotateRefreshToken: true,
      // Tokens live by their own TTLs and their grant, not by the short sign-in state of the browser.
      expiresWithSession: () => false,
      // Consent is asked for every authorization: a grant is never reused silently.
      loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
        const grantId = ctx.oidc.result?.consent?.grantId;
        return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
      },
      // A refusal that cannot go back to the app (unknown client, wrong redirect URI) is shown to the
      // person: a plain page, nothing loaded from elsewhere.
      renderError: (ctx, out) => {
        ctx.type = "html";
        ctx.set("Cache-Control", "no-store");
        const lines = Object.entries(out).map(([name, value]) => `<p><strong>${escapeHtml(name)}</strong>: ${escapeHtml(String(value))}</p>`);
        ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The app's sign-in request was refused</title></head><body><h1>The app's sign-in request was refused</h1>${lines.join("")}<p>Start connecting again from the app; if this persists, tell its developer.</p></body></html>`;
      },
      interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
      cookies: { keys: cookieKeys },
      jwks: { keys: [signingKey] },
      ...(fetchDocument ? { fetch: fetchDocument } : {}),
      ttl: { ...TTL_SECONDS },
      routes: {
        authorization: "/authorize",
        token: "/token",
        registration: "/register",
        revocation: "/revoke",
        jwks: "/jwks",
      },
    };
    const provider = new ProviderClass(`${base}${OAUTH_PATH}`, configuration);
    if (options.trustProxy) provider.proxy = true;
    // Logged without the request: its parameters may hold codes or tokens.
    provider.on("server_error", (_ctx: unknown, error: Error) => options.logger.error({ err: error }, "OAuth authorization server error"));
    // A reused refresh token or code revokes the grant; the connected app must show it revoked.
    provider.on("grant.revoked", (_ctx: unknown, grantId: string) => {
      options.services.connectedApps.revokedByServer(grantId).catch((error: unknown) => options.logger.error({ err: error, grantId }, "could not mark a connected app revoked"));
    });
    return provider;
  }

  return {
    provider(req: Request) {
      const base = baseUrl(req);
      let provider = providers.get(base);
      if (!provider) {
        if (providers.size >= MAX_ISSUERS) providers.delete(providers.keys().next().value!);
        provider = build(base);
        providers.set(base, provider);
      }
      return provider;
    },
    baseUrl,
    issuer: (req) => `${baseUrl(req)}${OAUTH_PATH}`,
    resource: (req) => `${baseUrl(req)}${MCP_PATH}`,
    resourceMetadataUrl: (req) => `${baseUrl(req)}/.well-known/oauth-protected-resource${MCP_PATH}`,
    maxClients: options.maxClients ?? DEFAULT_MAX_CLIENTS,
  };
}
