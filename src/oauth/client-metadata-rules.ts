import { findUnstorableInput } from "../http/text-safety";
import { firstInvisibleCharacter } from "../lib/visible-text";

/** An RFC 7591 §3.2.2 error: which code, and a sentence naming the field. */
export interface ClientMetadataProblem {
  error: "invalid_client_metadata" | "invalid_redirect_uri";
  description: string;
}

const isLoopbackHost = (hostname: string) => hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);

// RFC 8252 §7.1: a native app's scheme is a domain name it controls, reversed (com.example.app).
// The dot also keeps out every scheme a browser or the system acts on itself (javascript, data,
// file, blob…).
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

/**
 * Why `uri` may not be a redirect URI, or undefined. OAuth 2.1 and the MCP authorization
 * specification send authorization responses over https only, or over http to a loopback host
 * (the code never leaves the machine); a native app (`application_type: "native"`) may also use a
 * private-use scheme (RFC 8252 §7.1), whose answer the operating system hands to the app.
 */
export function redirectUriProblem(uri: string, applicationType: unknown): string | undefined {
  const url = URL.parse(uri);
  if (!url) return "must be an absolute URI";
  if (uri.includes("#")) return "must not contain a fragment";
  if (url.username || url.password) return "must not contain user information";
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:") {
    return isLoopbackHost(url.hostname) ? undefined : "must use https; http is accepted only for a loopback host (localhost, 127.0.0.0/8, [::1])";
  }
  if (applicationType !== "native") return `must use https, or http on a loopback host; a private-use scheme such as com.example.app:/callback is accepted for application_type "native" only`;
  if (!PRIVATE_USE_SCHEME.test(url.protocol)) return "must use https, http on a loopback host, or a private-use scheme that is a reversed domain name such as com.example.app (RFC 8252 §7.1)";
  return undefined;
}

/**
 * The rules a client's metadata must meet, whether it registers (RFC 7591) or publishes a Client
 * ID Metadata Document: text the database can store, an app name without invisible or
 * text-direction characters (it is shown to the person asked to trust it), and redirect URIs as
 * redirectUriProblem says.
 */
export function clientMetadataProblem(metadata: Record<string, unknown>): ClientMetadataProblem | undefined {
  const unstorable = findUnstorableInput(metadata);
  if (unstorable) return { error: "invalid_client_metadata", description: `${unstorable.path || "the metadata"}: ${unstorable.problem}` };
  if (typeof metadata.client_name === "string") {
    const invisible = firstInvisibleCharacter(metadata.client_name);
    if (invisible) {
      return { error: "invalid_client_metadata", description: `client_name: contains ${invisible}, an invisible or text-direction control character; give the app's name as plain text` };
    }
  }
  const uris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris : [];
  for (const [index, uri] of uris.entries()) {
    const problem = typeof uri === "string" ? redirectUriProblem(uri, metadata.application_type) : "must be a string";
    if (problem) return { error: "invalid_redirect_uri", description: `redirect_uris[${index}]: ${problem}` };
  }
  return undefined;
}
