import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from "express";
import { ApiError, badRequest } from "../http/api-error";
import { finalClientError } from "../http/client-error";
import { findUnstorableInput } from "../http/text-safety";
import type { Logger } from "../lib/logger";
import type { Services } from "../services";
import { ASSETS_DIR } from "./assets-manifest";
import type { AuthorizationServer } from "../oauth/authorization-server";
import { consentRoutes } from "./connect-routes";
import { mountKeyRoutes } from "./key-routes";
import { messagePage } from "./pages/message";
import { chromeOf, localsOf, pageForError, requireReviewer, sendPage } from "./respond";
import { mountReviewRoutes } from "./review-routes";
import { consoleSecurityHeaders } from "./security-headers";
import { loadSession, sameToken } from "./session";
import { mountSignInRoutes } from "./sign-in-routes";

const parseForm = express.urlencoded({ extended: false, limit: "64kb", parameterLimit: 50 });

/** The rule of the APIs for the console's query strings and forms: text Postgres cannot store is a 400. */
function refuseUnstorableInput(req: Request, _res: Response, next: NextFunction): void {
  const unstorable = findUnstorableInput(req.query, "query") ?? findUnstorableInput(req.body ?? {}, "form");
  if (unstorable) throw badRequest(`${unstorable.path}: ${unstorable.problem}`);
  next();
}

/** Every form a signed-in reviewer posts carries the session's anti-forgery token. */
function requireCsrf(req: Request, res: Response, next: NextFunction): void {
  if (!sameToken((req.body as Record<string, unknown> | undefined)?._csrf, localsOf(res).csrfToken)) {
    throw new ApiError("forbidden", "The form did not come from this console (anti-forgery token missing or wrong); reload the page and try again");
  }
  next();
}

/** The review console, mounted at /console: server-rendered pages over the same services as the APIs. */
export function consoleRouter(
  services: Services,
  logger: Logger,
  options: { signInLimiter?: RequestHandler; now?: () => Date; authorization?: AuthorizationServer } = {},
): Router {
  const now = options.now ?? (() => new Date());
  const router = express.Router();
  router.use(consoleSecurityHeaders);
  router.use(
    "/assets",
    express.static(ASSETS_DIR, { index: false, immutable: true, maxAge: "365d", fallthrough: true, redirect: false }),
  );
  router.use(loadSession(services.reviewers));
  router.use((req: Request, _res: Response, next: NextFunction) => (req.method === "POST" ? parseForm(req, _res, next) : next()));
  router.use(refuseUnstorableInput);

  if (options.signInLimiter) router.post("/sign-in", options.signInLimiter);
  mountSignInRoutes(router, services.reviewers);
  const consent = options.authorization ? consentRoutes(services, options.authorization) : undefined;
  consent?.mountPage(router);
  router.use(requireReviewer);
  router.post("/{*rest}", requireCsrf);
  consent?.mountDecision(router);
  mountReviewRoutes(router, services, logger, now);
  mountKeyRoutes(router, services, now);

  router.use((req: Request) => {
    throw new ApiError("not_found", `No console page at ${req.path}`);
  });
  router.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const apiError = finalClientError(error);
    if (apiError) return pageForError(res, apiError);
    logger.error({ requestId: res.locals.requestId, method: req.method, path: req.path, err: error }, "console error");
    sendPage(res, 500, messagePage(chromeOf(res), "Something went wrong", `Quote request id ${res.locals.requestId} when reporting it.`));
  });
  return router;
}
