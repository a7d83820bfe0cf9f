import type { NextFunction, Request, Response } from "express";
import { ApiError } from "../http/api-error";
import type { SafeHtml } from "./html";
import type { ConsoleLocals } from "./session";
import type { PageChrome } from "./pages/layout";
import { messagePage } from "./pages/message";

/** Pages carry reviewer data: never cached, by the browser or anything in between. */
export function sendPage(res: Response, status: number, page: SafeHtml): void {
  res.status(status).set({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }).send(page.value);
}

export const localsOf = (res: Response) => res.locals as ConsoleLocals;

export function chromeOf(res: Response, extra: Partial<PageChrome> = {}): PageChrome {
  const { reviewer, csrfToken } = localsOf(res);
  return { reviewer, csrfToken, ...extra };
}

export function redirect(res: Response, location: string): void {
  res.status(303).set({ Location: location, "Cache-Control": "no-store" }).end();
}

/** Signed-in reviewers only; anyone else is sent to the sign-in page, and back here after it. */
export function requireReviewer(req: Request, res: Response, next: NextFunction): void {
  if (localsOf(res).reviewer) {
    next();
    return;
  }
  const back = req.method === "GET" ? req.originalUrl : "/console";
  redirect(res, `/console/sign-in?next=${encodeURIComponent(back)}`);
}

/** The reviewer's workspace with this id (or their first), or 404 for anyone else's. */
export function workspaceOf(res: Response, workspaceId: unknown): { id: string; name: string } | undefined {
  const workspaces = localsOf(res).reviewer?.workspaces ?? [];
  if (workspaceId === undefined || workspaceId === "") return workspaces[0];
  const found = workspaces.find((w) => w.id === workspaceId);
  if (!found) throw new ApiError("not_found", "No such workspace among yours");
  return found;
}

const TITLES: Record<number, string> = {
  400: "That did not work",
  403: "Not allowed",
  404: "Not found",
  405: "Not allowed",
  409: "Already reviewed",
  413: "Too large",
  429: "Slow down",
  503: "Not available right now",
};

export function pageForError(res: Response, error: ApiError): void {
  if (Object.keys(error.headers).length) res.set(error.headers);
  sendPage(res, error.status, messagePage(chromeOf(res), TITLES[error.status] ?? "Error", error.message));
}
