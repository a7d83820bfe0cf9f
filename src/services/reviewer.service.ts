import { createHash, createHmac, randomBytes } from "node:crypto";
import { decoyPasswordHash, hashPassword, verifyPassword } from "../auth/password-hash";
import { DomainError, notFound } from "../domain/errors";
import type { Clock } from "../lib/clock";
import { countText } from "../lib/count-text";
import type { ReviewerRecord, ReviewerRepository } from "../repositories/reviewer.repository";
import type { WorkspaceRepository } from "../repositories/workspace.repository";
import { subjectOf, THROTTLE, waitBeforeNextAttempt, type SubjectKind } from "./sign-in-throttle";

export const SESSION_LIFETIME_MS = 12 * 60 * 60_000;

export interface ReviewerPrincipal {
  reviewerId: string;
  email: string;
  name: string;
  /** The workspaces the reviewer belongs to, by name; anything else answers 404. */
  workspaces: Array<{ id: string; name: string }>;
}

/** Refused because of earlier failures, before the password was even checked. */
export class SignInThrottled extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many failed sign-ins; try again in ${countText(retryAfterSeconds, "second")}`);
  }
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * The anti-forgery token of a session: derived from the session token, which only the reviewer's
 * cookie holds, so it is bound to that session and needs no storage of its own.
 */
export const csrfTokenFor = (sessionToken: string) => createHmac("sha256", sessionToken).update("console-csrf").digest("base64url");

export interface ReviewerServiceDeps {
  reviewers: ReviewerRepository;
  workspaces: Pick<WorkspaceRepository, "findById">;
  clock: Clock;
}

/** Reviewer accounts of the console: who they are, where they may review, and their sessions. */
export function createReviewerService({ reviewers, workspaces, clock }: ReviewerServiceDeps) {
  async function requireWorkspace(workspaceId: string): Promise<void> {
    if (!(await workspaces.findById(workspaceId))) throw notFound(`Workspace ${workspaceId} not found`);
  }

  async function throttleWait(subjects: Array<[SubjectKind, string]>): Promise<number> {
    const now = clock.now();
    const rows = new Map((await reviewers.failures(subjects.map(([kind, value]) => subjectOf(kind, value)))).map((r) => [r.subject, r]));
    return Math.max(
      0,
      ...subjects.map(([kind, value]) => {
        const row = rows.get(subjectOf(kind, value));
        return row ? waitBeforeNextAttempt(kind, row.failures, row.lastFailedAt, now) : 0;
      }),
    );
  }

  return {
    /** Adds a reviewer to a workspace; an email already known keeps its account, with this name and password. */
    async add(workspaceId: string, input: { email: string; name: string; password: string }): Promise<ReviewerRecord> {
      await requireWorkspace(workspaceId);
      const reviewer = await reviewers.upsert({
        email: normaliseEmail(input.email),
        name: input.name,
        passwordHash: await hashPassword(input.password),
      });
      await reviewers.addMembership(workspaceId, reviewer.id);
      return reviewer;
    },

    async list(workspaceId: string): Promise<ReviewerRecord[]> {
      await requireWorkspace(workspaceId);
      return reviewers.listByWorkspace(workspaceId);
    },

    async remove(workspaceId: string, reviewerId: string): Promise<void> {
      await requireWorkspace(workspaceId);
      if (!(await reviewers.removeMembership(workspaceId, reviewerId))) {
        throw notFound(`Reviewer ${reviewerId} is not a reviewer of workspace ${workspaceId}`);
      }
    },

    /**
     * Checks the password and opens a session; the token is returned once and only its hash is
     * kept. Throws SignInThrottled while earlier failures of the account or address still count,
     * and a 401 for a wrong email or password (the same answer for both, after the same work).
     */
    async signIn(emailInput: string, password: string, address: string): Promise<{ token: string; expiresAt: Date }> {
      const email = normaliseEmail(emailInput);
      const subjects: Array<[SubjectKind, string]> = [["account", email], ["address", address]];
      const wait = await throttleWait(subjects);
      if (wait > 0) throw new SignInThrottled(Math.ceil(wait / 1000));
      const reviewer = await reviewers.findByEmail(email);
      const matches = await verifyPassword(password, reviewer?.passwordHash ?? (await decoyPasswordHash()));
      const now = clock.now();
      if (!reviewer || !matches) {
        const forgetBefore = new Date(now.getTime() - THROTTLE.forgetAfterMs);
        for (const [kind, value] of subjects) await reviewers.recordFailure(subjectOf(kind, value), now, forgetBefore);
        throw new DomainError("unauthenticated", "Wrong email or password");
      }
      await reviewers.clearFailures(subjectOf("account", email));
      const token = randomBytes(32).toString("base64url");
      const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
      await reviewers.createSession(reviewer.id, sha256(token), expiresAt);
      return { token, expiresAt };
    },

    /** The reviewer behind a session token, or undefined when it is unknown or expired. */
    async session(token: string): Promise<ReviewerPrincipal | undefined> {
      const reviewer = await reviewers.findSession(sha256(token), clock.now());
      if (!reviewer) return undefined;
      return { reviewerId: reviewer.id, email: reviewer.email, name: reviewer.name, workspaces: await reviewers.workspacesOf(reviewer.id) };
    },

    signOut: (token: string) => reviewers.deleteSession(sha256(token)),
  };
}

export type ReviewerService = ReturnType<typeof createReviewerService>;

/** The records this service answers with, for adapters, which never import a repository. */
export type { ReviewerRecord };
