import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/**
 * The app's side of a hosted connector, on another site than the server under test (`localhost`
 * against the server's `127.0.0.1`): a start page with a link to the authorization URL, so that the
 * browser arrives cross-site, and the redirect URI, which records what the authorization server
 * sends back.
 */
export async function startConnectorSite(): Promise<{
  origin: string;
  redirectUri: string;
  startPage(authorizationUrl: string): string;
  nextCallback(): Promise<URL>;
  close(): Promise<void>;
}> {
  let pendingLink = "";
  const callbacks: URL[] = [];
  const waiting: Array<(url: URL) => void> = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/start") {
      res.writeHead(200, { "Content-Type": "text/html" }).end(`<!doctype html><a id="connect" href="${pendingLink.replace(/"/g, "&quot;")}">Connect</a>`);
      return;
    }
    if (url.pathname === "/callback") {
      const received = new URL(req.url ?? "/", origin);
      const waiter = waiting.shift();
      if (waiter) waiter(received);
      else callbacks.push(received);
      res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><p>Connected; you may close this window.</p>");
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    redirectUri: `${origin}/callback`,
    startPage(authorizationUrl: string) {
      pendingLink = authorizationUrl;
      return `${origin}/start`;
    },
    nextCallback: () => {
      const ready = callbacks.shift();
      return ready ? Promise.resolve(ready) : new Promise<URL>((resolve) => waiting.push(resolve));
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The SDK's OAuthClientProvider, keeping what a real client keeps in memory, and the URL it was sent to. */
export class InMemoryOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;

  constructor(
    private readonly redirectUri: string,
    private readonly metadata: Partial<OAuthClientMetadata> = {},
    readonly clientMetadataUrl?: string,
  ) {}

  get redirectUrl() {
    return this.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Test connector",
      redirect_uris: [this.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...this.metadata,
    };
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    if (!this.verifier) throw new Error("no code verifier saved");
    return this.verifier;
  }
}
