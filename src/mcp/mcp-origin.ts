import { localhostAllowedHostnames, validateHostHeader } from "@modelcontextprotocol/server";
import type { NextFunction, Request, Response } from "express";
import { ApiError } from "../http/api-error";

/** The names of this machine a local server answers at: the SDK's own list for the same check. */
const LOOPBACK_NAMES = localhostAllowedHostnames();

/**
 * DNS rebinding protection of a local server: without PUBLIC_BASE_URL (local development) the
 * endpoint answers only at a loopback name (`localhost`, `127.0.0.1`, `[::1]`, on any port, since
 * a container's port mapping may change it). A page whose name an attacker rebinds to this machine
 * reaches it under the attacker's name, and a request from it is refused even when the browser
 * sends no Origin. With PUBLIC_BASE_URL the Host is left alone: a router or proxy in front may
 * present a name of its own, and browsers, which send Origin with every POST, meet the Origin rule.
 */
export function requireLoopbackHost(path: string, publicBaseUrl?: string) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (publicBaseUrl) {
      next();
      return;
    }
    const host = req.get("host");
    if (!validateHostHeader(host, LOOPBACK_NAMES).ok) {
      const which = host === undefined ? "A request without a Host header" : `Host ${JSON.stringify(host)}`;
      throw new ApiError(
        "forbidden",
        `${which} is not allowed to call ${path}: without PUBLIC_BASE_URL the service answers MCP only at localhost, 127.0.0.1 or [::1], so that a web page whose name is rebound to this machine cannot reach it; set PUBLIC_BASE_URL to the address clients use to reach the service`,
      );
    }
    next();
  };
}

/**
 * The MCP transport specification requires servers to validate `Origin`: a browser page on
 * another site (or one that rebinds its own name to this server's address) must not reach the
 * tools. Clients outside a browser send no Origin and pass. Allowed: the origin of PUBLIC_BASE_URL,
 * or without one (local development) the address the request reached when that is a loopback
 * name. Never the Host header's name otherwise: after a DNS rebinding the attacker's page and its
 * Host agree. Compared whole (scheme, host, port), so `http://localhost:3000` does not admit
 * `http://localhost:8080`.
 */
export function requireOwnOrigin(path: string, publicBaseUrl?: string) {
  const configured = publicBaseUrl ? new URL(publicBaseUrl).origin : undefined;
  return (req: Request, _res: Response, next: NextFunction) => {
    const origin = req.get("origin");
    if (origin === undefined) {
      next();
      return;
    }
    const own = originOf(`${req.protocol}://${req.get("host") ?? ""}`);
    const local = own !== undefined && LOOPBACK_NAMES.includes(new URL(own).hostname) ? own : undefined;
    const allowed = [configured ?? local].filter((value): value is string => value !== undefined);
    if (!allowed.includes(originOf(origin) ?? "")) {
      throw new ApiError(
        "forbidden",
        `Origin ${JSON.stringify(origin)} is not allowed to call ${path}: ${allowed.length > 0 ? `browser pages may call it only from ${allowed.join(" or ")}` : "set PUBLIC_BASE_URL to the service's public address to let its own pages call it"}; MCP clients outside a browser send no Origin header`,
      );
    }
    next();
  };
}

// Normalised through URL so that `HTTP://Example.com:80` and `http://example.com` compare equal;
// the opaque origin `null` (sandboxed frames, file: pages) parses to "null" and is never allowed.
function originOf(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}
