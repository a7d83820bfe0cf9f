import { generateKeyPair, randomBytes, type JsonWebKey } from "node:crypto";
import { promisify } from "node:util";
import type { Request } from "express";
import type Provider from "oidc-provider";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { READ_SCOPES } from "../auth/scopes";
import { ApiError } from "../http/api-error";
import { MCP_PATH } from "../mcp/mcp-names";
import type { Logger } from "../lib/logger";
import type { Services } from "../services";
import { keepErrorsBeforeConsentOnOrigin, renderAuthorizationError } from "./authorization-error-page";
import { clientIdUrlRefusal, clientMetadataFetch, type MetadataAddressPolicy } from "./client-metadata-fetch";
import { clientMetadataProblem } from "./client-metadata-rules";
import { storageAdapter } from "./storage-adapter";

/** Where the authorization server answers; its issuer is this path on the public address. */
export const OAUTH_PATH = "/oauth";
/**
 * Where the public metadata is read without credentials (RFC 8414, RFC 9728, OpenID discovery, the
 * JWKS): rate limited per client address like the other routes without a key.
 */
export const METADATA_PATHS = ["/.well-known", `${OAUTH_PATH}/.well-known`, `${OAUTH_PATH}/jwks`];
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
   * deployment whose clients publish theirs inside it. Fetches then may reach private addresses
   * (never loopback, link-local or other special-purpose ones).
   */
  clientMetadataCa?: string;
  /** Lets Client ID Metadata Documents be fetched from loopback addresses. For tests only, which serve them on 127.0.0.1; no setting of the server turns it on. */
  clientMetadataLoopback?: boolean;
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

// Without PUBLIC_BASE_URL (a local embedded setup), one issuer per loopback name the server is
// reached by on its port (localhost, 127.0.0.1, [::1]); a few kept, since a process may listen on more than one port.
const MAX_ISSUERS = 4;

const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?$/i;

/**
 * The origin of a request that reached this server by a loopback name on the port it arrived at,
 * or undefined. A browser after a DNS rebinding, or any client, can send another Host: it gets no
 * issuer, so that Host headers can neither name the issuer nor make the process build providers.
 */
function loopbackOrigin(req: Request): string | undefined {
  const match = LOOPBACK_HOST.exec(req.get("host") ?? "");
  if (!match) return undefined;
  const defaultPort = req.protocol === "https" ? 443 : 80;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  if (port !== req.socket.localPort) return undefined;
  return `${req.protocol}://${match[1]!.toLowerCase()}${port === defaultPort ? "" : `:${port}`}`;
}

const generateRsaKeyPair = promisify(generateKeyPair);

/**
 * panva's oidc-provider (OpenID certified) as the OAuth 2.1 authorization server of the connector
 * MCP resource: authorization code with PKCE (S256), dynamic client registration, resource
 * indicators binding every token to /mcp, rotating refresh tokens whose reuse revokes
 * the grant, `iss` in authorization responses. The consent interaction is the console's.
 */
export function createAuthorizationServer(options: AuthorizationServerOptions): AuthorizationServer {
  const cookieKeys = [options.cookieSecret ?? randomBytes(32).toString("base64url")];
  const providers = new Map<string, Promise<Provider>>();
  const configuredBase = options.publicBaseUrl?.replace(/\/+$/, "");
  const baseUrl = (req: Request) => configuredBase ?? loopbackOrigin(req) ?? `${req.protocol}://${req.get("host")}`;
  /** The base of the issuer and resource a request names, or 403 for a Host that has none. */
  const issuerBase = (req: Request) => {
    const base = configuredBase ?? loopbackOrigin(req);
    if (base === undefined) {
      throw new ApiError(
        "forbidden",
        `The authorization server does not answer at Host ${JSON.stringify(req.get("host") ?? "")}: without PUBLIC_BASE_URL it answers only at localhost, 127.0.0.1 or [::1] on the port the request reached (${req.socket.localPort}); set PUBLIC_BASE_URL to the address clients use`,
      );
    }
    return base;
  };
  // Signs nothing a resource relies on (access tokens are opaque and no ID token is issued:
  // `openid` is never granted), so one key for the process suffices, whatever the issuers; made at
  // first use, off the event loop.
  let signingKey: Promise<JsonWebKey> | undefined;
  const signingKeyOnce = () =>
    (signingKey ??= generateRsaKeyPair("rsa", { modulusLength: 2048 }).then(({ privateKey }) => ({ ...privateKey.export({ format: "jwk" }), use: "sig", alg: "RS256" })));

  const metadataAddresses: MetadataAddressPolicy = { privateNetworks: options.clientMetadataCa !== undefined, loopback: options.clientMetadataLoopback === true };
  const fetchDocument = clientMetadataFetch(metadataAddresses, options.clientMetadataCa);

  async function build(base: string): Promise<Provider> {
    const { default: ProviderClass, errors } = await import("oidc-provider");
    const resource = `${base}${MCP_PATH}`;
    const key = await signingKeyOnce();
    const configuration: Configuration = {
      adapter: storageAdapter(options.services.oauthStore, (description) => new errors.InvalidRequest(description)),
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
        clientIdMetadataDocument: {
          enabled: true,
          ack: "draft-02",
          cacheDuration: { min: 60, max: 24 * 60 * 60 },
          // Refused by address before anything is fetched; the fetch checks the connection again.
          allowFetch: async (_ctx, clientId) => {
            const refusal = await clientIdUrlRefusal(clientId, metadataAddresses);
            if (refusal) throw new errors.InvalidClient(`client_id metadata document fetch not allowed: ${refusal}`);
            return true;
          },
          // A document meets the rules a registration meets (redirect URIs, the app's name, storable text).
          allowClient: (_ctx, client) => {
            const problem = clientMetadataProblem(client.metadata() as Record<string, unknown>);
            if (problem) throw new errors.InvalidClientMetadata(problem.description);
            return true;
          },
        },
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
      // A refusal that does not go back to the app (unknown client, wrong redirect URI, anything
      // before consent) is shown to the person.
      renderError: renderAuthorizationError,
      interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
      cookies: { keys: cookieKeys },
      jwks: { keys: [key] },
      fetch: fetchDocument,
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
    keepErrorsBeforeConsentOnOrigin(provider);
    // Logged without the request: its parameters may hold codes or tokens.
    provider.on("server_error", (_ctx: unknown, error: Error) => options.logger.error({ err: error }, "OAuth authorization server error"));
    // A reused refresh token or code revokes the grant; the connected app must show it revoked.
    provider.on("grant.revoked", (_ctx: unknown, grantId: string) => {
      options.services.connectedApps.revokedByServer(grantId).catch((error: unknown) => options.logger.error({ err: error, grantId }, "could not mark a connected app revoked"));
    });
    return provider;
  }

  return {
    async provider(req: Request) {
      const base = issuerBase(req);
      let provider = providers.get(base);
      if (!provider) {
        if (providers.size >= MAX_ISSUERS) providers.delete(providers.keys().next().value!);
        provider = build(base);
        providers.set(base, provider);
      }
      return provider;
    },
    baseUrl,
    issuer: (req) => `${issuerBase(req)}${OAUTH_PATH}`,
    resource: (req) => `${issuerBase(req)}${MCP_PATH}`,
    resourceMetadataUrl: (req) => `${baseUrl(req)}/.well-known/oauth-protected-resource${MCP_PATH}`,
    maxClients: options.maxClients ?? DEFAULT_MAX_CLIENTS,
  };
}
