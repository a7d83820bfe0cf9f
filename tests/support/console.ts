import request from "supertest";
import type { TestApp } from "./test-app";

let counter = 0;

/** A reviewer of the workspace, added through the admin service path the admin API uses. */
export async function createReviewer(t: TestApp, workspaceId: string, overrides: { email?: string; password?: string } = {}) {
  counter += 1;
  const reviewer = { email: overrides.email ?? `reviewer${counter}@acme.test`, name: `Reviewer ${counter}`, password: overrides.password ?? "correct horse battery" };
  const created = await t.services.reviewers.add(workspaceId, reviewer);
  return { ...reviewer, id: created.id };
}

export const csrfFrom = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

/** Signs in through the form as a browser would: the sign-in cookie and token, then the session cookie. */
export async function consoleSession(t: TestApp, email: string, password: string) {
  const agent = request.agent(t.app);
  const form = await agent.get("/console/sign-in").expect(200);
  const res = await agent.post("/console/sign-in").type("form").send({ _csrf: csrfFrom(form.text), email, password });
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`);
  const queue = await agent.get("/console").expect(200);
  return { agent, csrf: csrfFrom(queue.text), signInResponse: res };
}
