import type { NextFunction, Request, Response } from "express";
import { constantTimeEqual } from "../auth/api-key-secret";
import { keyAllows, type Scope } from "../auth/scopes";
import type { ApiKeyService } from "../services/api-key.service";
import { ApiError } from "./api-error";

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

export function requireApiKey(apiKeys: Pick<ApiKeyService, "authenticate">, scope: Scope, operation: string) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const principal = await apiKeys.authenticate(readBearerToken(req, "API key"));
    if (!keyAllows(principal.scopes, scope)) {
      throw new ApiError("forbidden", `This API key lacks the ${scope} scope, which ${operation} requires`);
    }
    res.locals.principal = principal;
    next();
  };
}

export function requireAdminToken(adminToken: string | undefined) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const token = readBearerToken(req, "admin token");
    if (adminToken === undefined || !constantTimeEqual(token, adminToken)) {
      throw new ApiError("unauthorized", "Invalid admin token");
    }
    next();
  };
}
