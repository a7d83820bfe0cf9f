import type { Request, Response, Router } from "express";
import type { ArtifactStatus } from "../generated/prisma/client";
import { badRequest } from "../http/api-error";
import type { Logger } from "../lib/logger";
import type { Services } from "../services";
import { artifactPage } from "./pages/artifact";
import { queuePage, queueQuery, type StatusFilter } from "./pages/queue";
import { messagePage } from "./pages/message";
import { chromeOf, localsOf, redirect, sendPage, workspaceOf } from "./respond";

const QUEUE_LIMIT = 200;
const SIMILAR_LIMIT = 5;
const STATUSES = ["draft", "validated", "disputed", "all"] as const;
const NOTICES: Record<string, string> = { validated: "Validated.", disputed: "Disputed: the agent will read your reason." };

interface QueueFilter {
  status: StatusFilter;
  keyId?: string;
}

function filterOf(source: { status?: unknown; key?: unknown }): QueueFilter {
  const status = source.status ?? "draft";
  if (typeof status !== "string" || !(STATUSES as readonly string[]).includes(status)) {
    throw badRequest(`status must be one of ${STATUSES.join(", ")}`);
  }
  const keyId = typeof source.key === "string" && source.key !== "" ? source.key : undefined;
  return { status: status as StatusFilter, keyId };
}

/** The queue filters posted back by a review form, as the query string of the page it came from. */
const filterFromForm = (value: unknown) => filterOf(Object.fromEntries(new URLSearchParams(typeof value === "string" ? value : "")));

export function mountReviewRoutes(router: Router, services: Services, logger: Logger, now: () => Date): void {
  const entriesOf = (workspaceId: string, filter: QueueFilter) =>
    services.review.queueEntries(workspaceId, {
      status: filter.status === "all" ? undefined : (filter.status as ArtifactStatus),
      pushedByKeyId: filter.keyId,
      take: QUEUE_LIMIT,
    });

  /** The artifact, if it belongs to one of the reviewer's workspaces; the same 404 otherwise. */
  const findArtifact = (res: Response, artifactId: string) =>
    services.review.findIn((localsOf(res).reviewer?.workspaces ?? []).map((w) => w.id), artifactId);

  router.get("/", async (req: Request, res: Response) => {
    const workspace = workspaceOf(res, req.query.workspace);
    if (!workspace) {
      return sendPage(res, 200, messagePage(chromeOf(res), "No workspace yet", "You are not a reviewer of any workspace. Ask an administrator to add you."));
    }
    const filter = filterOf(req.query);
    const keys = await services.apiKeys.list(workspace.id);
    if (filter.keyId && !keys.some((key) => key.id === filter.keyId)) throw badRequest("key: no such API key in this workspace");
    const [counts, entries] = await Promise.all([services.review.countByStatus(workspace.id, filter.keyId), entriesOf(workspace.id, filter)]);
    const notice = NOTICES[String(req.query.done)];
    sendPage(
      res,
      200,
      queuePage(chromeOf(res, { workspaceId: workspace.id, active: "queue" }), { workspace, ...filter, keys, counts, entries, limit: QUEUE_LIMIT, now: now(), notice }),
    );
  });

  async function showArtifact(req: Request, res: Response, artifactId: string, status = 200, error?: string) {
    const artifact = await findArtifact(res, artifactId);
    const filter = filterOf(req.method === "GET" ? req.query : { status: "draft" });
    const query = queueQuery({ workspaceId: artifact.workspaceId, ...filter });
    const entries = await entriesOf(artifact.workspaceId, filter);
    const index = entries.findIndex((entry) => entry.id === artifact.id);
    const href = (id: string | undefined) => (id ? `/console/artifacts/${id}?${query}` : undefined);
    const similar =
      artifact.status === "draft"
        ? await services.artifacts.searchWorkspace(artifact.workspaceId, `${artifact.summary}\n${artifact.why}`, SIMILAR_LIMIT).catch((err: unknown) => {
            logger.warn({ err, artifactId }, "similar artifacts unavailable");
            return [];
          })
        : [];
    const csrfToken = localsOf(res).csrfToken ?? "";
    sendPage(
      res,
      status,
      artifactPage(
        { ...chromeOf(res, { workspaceId: artifact.workspaceId, active: "queue" }), csrfToken },
        {
          artifact,
          similar,
          previousHref: index > 0 ? href(entries[index - 1]?.id) : undefined,
          nextHref: index >= 0 ? href(entries[index + 1]?.id) : undefined,
          queueHref: `/console?${query}`,
          position: index >= 0 ? { index: index + 1, total: entries.length } : undefined,
          queueQuery: query,
          now: now(),
          notice: NOTICES[String(req.query.done)],
          error,
        },
      ),
    );
  }

  router.get("/artifacts/:id", (req: Request, res: Response) => showArtifact(req, res, String(req.params.id)));

  /** After a review: the next draft of the queue the reviewer works through, or the queue itself. */
  async function afterReview(req: Request, res: Response, artifactId: string, workspaceId: string, done: "validated" | "disputed") {
    const filter = filterFromForm((req.body as Record<string, unknown>).queue);
    const query = queueQuery({ workspaceId, ...filter });
    const entries = await entriesOf(workspaceId, filter);
    const next = entries.find((entry) => entry.id !== artifactId && entry.status === "draft");
    redirect(res, next ? `/console/artifacts/${next.id}?${query}&done=${done}` : `/console?${query}&done=${done}`);
  }

  router.post("/artifacts/:id/validate", async (req: Request, res: Response) => {
    const artifact = await findArtifact(res, String(req.params.id));
    await services.review.validate(artifact.id, localsOf(res).reviewer!.email, artifact.workspaceId);
    await afterReview(req, res, artifact.id, artifact.workspaceId, "validated");
  });

  router.post("/artifacts/:id/dispute", async (req: Request, res: Response) => {
    const artifact = await findArtifact(res, String(req.params.id));
    const reason = (req.body as Record<string, unknown>).reason;
    if (typeof reason !== "string" || reason.trim() === "") {
      return showArtifact(req, res, artifact.id, 400, "Write a reason for disputing: the agent that pushed the draft reads it.");
    }
    if (reason.length > 2000) throw badRequest("reason: must be at most 2000 characters");
    await services.review.dispute(artifact.id, localsOf(res).reviewer!.email, reason.trim(), artifact.workspaceId);
    await afterReview(req, res, artifact.id, artifact.workspaceId, "disputed");
  });
}

