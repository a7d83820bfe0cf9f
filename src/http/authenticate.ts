import type { NextFunction, Request, Response } from "express";
import { constantTimeEqual } from "../auth/api-key-secret";
import { keyAllows, type Scope } from "../auth/scopes";
import { onBehalfOf } from "../db/workspace-scope";
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
 * Runs a credential check under the address's budget of refusals. The credential is always checked,
 * so a valid one is served whatever else failed from its address; each 401 of the check is counted
 * against the address, and once the address has spent its budget a refusal is answered 429 instead.
 * Requests without a usable Authorization header are refused before this, cost nothing, and are not
 * counted.
 */
export async function checkCredentials<T>(req: Request, res: Response, failures: AuthFailureLimiter | undefined, check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (failures && toClientError(error)?.status === 401) await failures.refused(req, res);
    throw error;
  }
}

export function requireApiKey(apiKeys: Pick<ApiKeyService, "authenticate">, scope: Scope, operation: string, failures?: AuthFailureLimiter) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const secret = readBearerToken(req, "API key");
    const principal = await checkCredentials(req, res, failures, () => apiKeys.authenticate(secret));
    if (!keyAllows(principal.scopes, scope)) {
      throw new ApiError("forbidden", `This API key lacks the ${scope} scope, which ${operation} requires`);
    }
    res.locals.principal = principal;
    onBehalfOf(principal.workspaceId, next);
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
