import type { Request, Response, Router } from "express";
import type { z } from "zod";
import { badRequest } from "../http/api-error";
import type { Logger } from "../lib/logger";
import { adminDeleteArtifact } from "../operations/admin-deletion";
import { adminDisputeWorkspaceArtifact, adminListArtifacts, adminValidateWorkspaceArtifact } from "../operations/admin-review";
import type { Services } from "../services";
import { inputOf, parseInput, runOperation } from "./operations";
import { artifactPage } from "./pages/artifact";
import { queuePage, queueQuery, type StatusFilter } from "./pages/queue";
import { messagePage } from "./pages/message";
import { chromeOf, localsOf, redirect, sendPage, workspaceOf } from "./respond";
import { contentAsJson } from "./content-json";

const SIMILAR_LIMIT = 5;
const NOTICES: Record<string, string> = {
  validated: "Validated.",
  disputed: "Disputed: the agent will read your reason.",
  deleted: "Artifact deleted: it is gone from search, recall and feedback.",
};

/** The queue a page shows: the review queue's own input, and the console's filter by pushing key. */
interface Queue {
  input: z.output<typeof adminListArtifacts.input>;
  keyId?: string;
}

/**
 * The queue of these filters, read with the review queue's input schema. The console opens on the
 * drafts, and its "all" tab is the queue with no status, as the admin API says it.
 */
function queueOf(workspaceId: string, source: { status?: unknown; key?: unknown }): Queue {
  const status = source.status ?? "draft";
  const input = inputOf(adminListArtifacts, { id: workspaceId, status: status === "all" ? undefined : status });
  const keyId = typeof source.key === "string" && source.key !== "" ? source.key : undefined;
  return { input, keyId };
}

const statusOf = (queue: Queue): StatusFilter => queue.input.status ?? "all";
const queryOf = (queue: Queue) => queueQuery({ workspaceId: queue.input.id, status: statusOf(queue), keyId: queue.keyId });

/** The queue filters posted back by a review form, as the query string of the page it came from. */
const formFilters = (value: unknown) => Object.fromEntries(new URLSearchParams(typeof value === "string" ? value : ""));

export function mountReviewRoutes(router: Router, services: Services, logger: Logger, now: () => Date): void {
  // The same service read as the admin API's review queue, with the console's key filter beside it.
  const entriesOf = ({ input, keyId }: Queue) => services.review.queue(input.id, { status: input.status, limit: input.limit, pushedByKeyId: keyId });

  /** The artifact, if it belongs to one of the reviewer's workspaces; the same 404 otherwise. */
  const findArtifact = (res: Response, artifactId: string) =>
    services.review.findIn((localsOf(res).reviewer?.workspaces ?? []).map((w) => w.id), artifactId);

  router.get("/", async (req: Request, res: Response) => {
    const workspace = workspaceOf(res, req.query.workspace);
    if (!workspace) {
      return sendPage(res, 200, messagePage(chromeOf(res), "No workspace yet", "You are not a reviewer of any workspace. Ask an administrator to add you."));
    }
    const queue = queueOf(workspace.id, req.query);
    const keys = await services.apiKeys.list(workspace.id);
    if (queue.keyId && !keys.some((key) => key.id === queue.keyId)) throw badRequest("key: no such API key in this workspace");
    const [counts, entries] = await Promise.all([services.review.countByStatus(workspace.id, queue.keyId), entriesOf(queue)]);
    const notice = NOTICES[String(req.query.done)];
    sendPage(
      res,
      200,
      queuePage(chromeOf(res, { workspaceId: workspace.id, active: "queue" }), {
        workspace,
        status: statusOf(queue),
        keyId: queue.keyId,
        keys,
        counts,
        entries,
        limit: queue.input.limit,
        now: now(),
        notice,
      }),
    );
  });

  async function showArtifact(req: Request, res: Response, artifactId: string, status = 200, error?: string) {
    const artifact = await findArtifact(res, artifactId);
    const queue = queueOf(artifact.workspaceId, req.method === "GET" ? req.query : { status: "draft" });
    const query = queryOf(queue);
    const entries = await entriesOf(queue);
    const index = entries.findIndex((entry) => entry.id === artifact.id);
    const href = (id: string | undefined) => (id ? `/console/artifacts/${id}?${query}` : undefined);
    const similar =
      artifact.status === "draft"
        ? await services.artifacts
            .searchWorkspace(artifact.workspaceId, `${artifact.summary}\n${artifact.why}`, SIMILAR_LIMIT)
            .then((found) => found.hits)
            .catch((err: unknown) => {
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

  // The whole body one click from the page that shows only part of it, found like the page itself.
  router.get("/artifacts/:id/content.json", async (req: Request, res: Response) => {
    const artifact = await findArtifact(res, String(req.params.id));
    res.status(200).set({ "Cache-Control": "no-store" }).type("application/json").send(JSON.stringify(contentAsJson(artifact.id, artifact.content)));
  });

  /** After a review: the next draft of the queue the reviewer works through, or the queue itself. */
  async function afterReview(req: Request, res: Response, artifactId: string, workspaceId: string, done: "validated" | "disputed") {
    const queue = queueOf(workspaceId, formFilters((req.body as Record<string, unknown>).queue));
    const query = queryOf(queue);
    const entries = await entriesOf(queue);
    const next = entries.find((entry) => entry.id !== artifactId && entry.status === "draft");
    redirect(res, next ? `/console/artifacts/${next.id}?${query}&done=${done}` : `/console?${query}&done=${done}`);
  }

  // Reviews run the admin API's operations, in the workspace the artifact was found in among the reviewer's.
  router.post("/artifacts/:id/validate", async (req: Request, res: Response) => {
    const artifact = await findArtifact(res, String(req.params.id));
    const by = localsOf(res).reviewer!.email;
    const input = inputOf(adminValidateWorkspaceArtifact, { workspaceId: artifact.workspaceId, artifactId: artifact.id, review: { by } });
    await runOperation(adminValidateWorkspaceArtifact, input, services, req);
    await afterReview(req, res, artifact.id, artifact.workspaceId, "validated");
  });

  // Deleting runs the admin API's operation too, in the workspace the artifact was found in; then back to the queue it came from.
  router.post("/artifacts/:id/delete", async (req: Request, res: Response) => {
    const artifact = await findArtifact(res, String(req.params.id));
    const input = inputOf(adminDeleteArtifact, { workspaceId: artifact.workspaceId, artifactId: artifact.id });
    await runOperation(adminDeleteArtifact, input, services, req);
    const query = queryOf(queueOf(artifact.workspaceId, formFilters((req.body as Record<string, unknown>).queue)));
    redirect(res, `/console?${query}&done=deleted`);
  });

  router.post("/artifacts/:id/dispute", async (req: Request, res: Response) => {
    const artifact = await findArtifact(res, String(req.params.id));
    const by = localsOf(res).reviewer!.email;
    const { reason } = req.body as Record<string, unknown>;
    const parsed = parseInput(adminDisputeWorkspaceArtifact, { workspaceId: artifact.workspaceId, artifactId: artifact.id, dispute: { by, reason } });
    if (!parsed.ok) {
      return showArtifact(req, res, artifact.id, 400, `Write a reason for disputing: the agent that pushed the draft reads it (${parsed.problem}).`);
    }
    await runOperation(adminDisputeWorkspaceArtifact, parsed.input, services, req);
    await afterReview(req, res, artifact.id, artifact.workspaceId, "disputed");
  });
}
