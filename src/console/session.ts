import { randomBytes, timingSafeEqual } from "node:crypto";
import { parse as parseCookies } from "cookie";
import type { NextFunction, Request, Response } from "express";
import { csrfTokenFor, type ReviewerPrincipal, type ReviewerService } from "../services/reviewer.service";

export const SESSION_COOKIE = "wsi_console_session";
/** Anti-forgery token for the sign-in form, before any session exists (double-submit). */
export const SIGN_IN_COOKIE = "wsi_console_signin";

export interface ConsoleLocals {
  reviewer?: ReviewerPrincipal;
  sessionToken?: string;
  csrfToken?: string;
}

export const cookiesOf = (req: Request): Record<string, string | undefined> => parseCookies(req.headers.cookie ?? "");

/** HttpOnly, SameSite=Strict, limited to /console, and Secure whenever the request came over HTTPS. */
const cookieOptions = (req: Request, path: string) => ({ httpOnly: true, sameSite: "strict" as const, secure: req.secure, path });

export function setSessionCookie(req: Request, res: Response, token: string, expiresAt: Date): void {
  res.cookie(SESSION_COOKIE, token, { ...cookieOptions(req, "/console"), expires: expiresAt });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req, "/console"));
}

/** The sign-in form's token: the one in the cookie, or a new one set now. */
export function signInToken(req: Request, res: Response): string {
  const existing = cookiesOf(req)[SIGN_IN_COOKIE];
  if (existing && /^[\w-]{32,64}$/.test(existing)) return existing;
  const token = randomBytes(24).toString("base64url");
  res.cookie(SIGN_IN_COOKIE, token, { ...cookieOptions(req, "/console/sign-in"), maxAge: 60 * 60_000 });
  return token;
}

export function sameToken(given: unknown, expected: string | undefined): boolean {
  if (typeof given !== "string" || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Resolves the session cookie into the reviewer (and the session's anti-forgery token), if any. */
export function loadSession(reviewers: ReviewerService) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const token = cookiesOf(req)[SESSION_COOKIE];
    const locals = res.locals as ConsoleLocals;
    if (token) {
      const reviewer = await reviewers.session(token);
      if (reviewer) {
        locals.reviewer = reviewer;
        locals.sessionToken = token;
        locals.csrfToken = csrfTokenFor(token);
      }
    }
    next();
  };
}
