import type { NextFunction, Request, Response } from "express";
import { constantTimeEqual } from "../auth/api-key-secret";
import { keyAllows, type Scope } from "../auth/scopes";
import type { ApiKeyService } from "../services/api-key.service";
import { ApiError } from "./api-error";
import { toClientError } from "./client-error";
import type { AuthFailureLimiter } from "./rate-limit/rate-limiters";

/** The token of an `Authorization: Bearer <token>` header, or a 401 saying what is wrong with it. */
export function readBearerToken(req: Request, what: string): string {
  const header = req.get("authorization");
  if (header === undefined) {
    throw new ApiError("unauthorized", `Missing Authorization header: send Authorization: Bearer <${what}>`);
  }
  const match = /^(\S+)(?:\s+(.*))?$/.exec(header.trim());
  if (!match || match[1]!.toLowerCase() !== "bearer") {
    throw new ApiError("unauthorized", `Authorization header must use the Bearer scheme: Authorization: Bearer <${what}>`);
  }
  const token = (match[2] ?? "").trim();
  if (token === "") throw new ApiError("unauthorized", `Authorization header has an empty Bearer token`);
  return token;
}

/**
 * Runs a credential check under the address's budget of refusals: an address that has spent it is
 * refused (429) before the check can cost a lookup, and each 401 of the check is counted. Requests
 * without a usable Authorization header are refused before this, cost nothing, and are not counted.
 * Past the budget, `known` still answers without a lookup for credentials accepted moments ago.
 */
export async function checkCredentials<T>(
  req: Request,
  res: Response,
  failures: AuthFailureLimiter | undefined,
  check: () => T | Promise<T>,
  known?: () => T | undefined,
): Promise<T> {
  if (!failures) return check();
  if (failures.isSpent(req)) {
    const accepted = known?.();
    if (accepted !== undefined) return accepted;
  }
  await failures.refuseIfSpent(req, res);
  try {
    return await check();
  } catch (error) {
    if (toClientError(error)?.status === 401) await failures.countFailure(req);
    throw error;
  }
}

export function requireApiKey(apiKeys: Pick<ApiKeyService, "authenticate" | "recentlyAccepted">, scope: Scope, operation: string, failures?: AuthFailureLimiter) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const secret = readBearerToken(req, "API key");
    const principal = await checkCredentials(req, res, failures, () => apiKeys.authenticate(secret), () => apiKeys.recentlyAccepted(secret));
    if (!keyAllows(principal.scopes, scope)) {
      throw new ApiError("forbidden", `This API key lacks the ${scope} scope, which ${operation} requires`);
    }
    res.locals.principal = principal;
    next();
  };
}

export function requireAdminToken(adminToken: string | undefined, failures?: AuthFailureLimiter) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = readBearerToken(req, "admin token");
    await checkCredentials(req, res, failures, () => {
      if (adminToken === undefined || !constantTimeEqual(token, adminToken)) {
        throw new ApiError("unauthorized", "Invalid admin token");
      }
    });
    next();
  };
}
