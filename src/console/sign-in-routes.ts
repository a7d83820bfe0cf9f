import type { Request, Response, Router } from "express";
import { ipKeyGenerator } from "express-rate-limit";
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from "../contracts/reviewers";
import { DomainError } from "../domain/errors";
import { ApiError } from "../http/api-error";
import { countText } from "../lib/count-text";
import { SignInThrottled, type ReviewerService } from "../services/reviewer.service";
import { signInPage } from "./pages/sign-in";
import { localsOf, redirect, sendPage } from "./respond";
import { clearSessionCookie, cookiesOf, sameToken, setSessionCookie, SIGN_IN_COOKIE, signInToken } from "./session";

/** Only console paths on this origin: never an open redirect. */
function safeNext(value: unknown): string | undefined {
  return typeof value === "string" && /^\/console(\/|\?|$)/.test(value) && !/[\\\s]/.test(value) ? value : undefined;
}

// Grouped as the rate limits group them (IPv6 per /56), so rotating addresses in one range gains nothing.
const clientAddress = (req: Request) => ipKeyGenerator(req.ip ?? req.socket.remoteAddress ?? "unknown");

export function mountSignInRoutes(router: Router, reviewers: ReviewerService): void {
  router.get("/sign-in", (req: Request, res: Response) => {
    if (localsOf(res).reviewer) return redirect(res, safeNext(req.query.next) ?? "/console");
    const notice = req.query["signed-out"] !== undefined ? "You are signed out." : undefined;
    sendPage(res, 200, signInPage({ csrfToken: signInToken(req, res), next: safeNext(req.query.next), notice }));
  });

  router.post("/sign-in", async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!sameToken(body._csrf, cookiesOf(req)[SIGN_IN_COOKIE])) {
      throw new ApiError("forbidden", "The sign-in form expired or did not come from this console; reload it and try again");
    }
    // Cut to the longest an account can have: nothing longer can match, and hashing it would be work for nothing.
    const email = typeof body.email === "string" ? body.email.slice(0, MAX_EMAIL_LENGTH) : "";
    const password = typeof body.password === "string" ? body.password.slice(0, MAX_PASSWORD_LENGTH) : "";
    const next = safeNext(body.next);
    const again = (status: number, error: string) =>
      sendPage(res, status, signInPage({ csrfToken: signInToken(req, res), email, error, next }));
    if (!email || !password) return again(400, "Enter your email and password.");
    try {
      const session = await reviewers.signIn(email, password, clientAddress(req));
      setSessionCookie(req, res, session.token, session.expiresAt);
      res.clearCookie(SIGN_IN_COOKIE, { path: "/console/sign-in" });
      redirect(res, next ?? "/console");
    } catch (error) {
      if (error instanceof SignInThrottled) {
        res.set("Retry-After", String(error.retryAfterSeconds));
        return again(429, `Too many failed sign-ins. Try again in ${countText(error.retryAfterSeconds, "second")}.`);
      }
      if (error instanceof DomainError && error.kind === "unauthenticated") return again(401, "Wrong email or password.");
      throw error;
    }
  });

  router.post("/sign-out", async (req: Request, res: Response) => {
    const { sessionToken, csrfToken } = localsOf(res);
    if (sessionToken) {
      if (!sameToken((req.body as Record<string, unknown> | undefined)?._csrf, csrfToken)) {
        throw new ApiError("forbidden", "The form did not come from this console (anti-forgery token missing or wrong); reload the page");
      }
      await reviewers.signOut(sessionToken);
    }
    clearSessionCookie(req, res);
    redirect(res, "/console/sign-in?signed-out");
  });
}
