import { createHash } from "node:crypto";
import request from "supertest";
import { pushArtifact } from "../support/artifacts";
import { consoleSession, createReviewer, csrfFrom } from "../support/console";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let home: WorkspaceWithKey;
let reviewer: Awaited<ReturnType<typeof createReviewer>>;

beforeAll(async () => {
  t = await createTestApp();
  home = await createWorkspaceWithKey(t.services, { keyName: "churn-bot" });
  reviewer = await createReviewer(t, home.workspaceId);
});
afterAll(() => t.close());

describe("reviewer accounts in the admin API", () => {
  it("creates a reviewer with 201 and never returns the password", async () => {
    const res = await request(t.app)
      .post(`/admin/v1/workspaces/${home.workspaceId}/reviewers`)
      .set(adminAuth(t.adminToken))
      .send({ email: "Ana@Acme.test", name: "Ana", password: "a long enough password" })
      .expect(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^rev_/), email: "ana@acme.test", name: "Ana", createdAt: expect.any(Number) });
    expect(JSON.stringify(res.body)).not.toContain("password");
  });

  it("stores the password as a scrypt hash", async () => {
    const rows = await t.database.prisma.reviewer.findMany({ where: { email: reviewer.email } });
    expect(rows[0]?.passwordHash).toMatch(/^scrypt\$65536\$8\$1\$/);
    expect(rows[0]?.passwordHash).not.toContain(reviewer.password);
  });

  it("answers 400 naming the field for a short password", async () => {
    const res = await request(t.app)
      .post(`/admin/v1/workspaces/${home.workspaceId}/reviewers`)
      .set(adminAuth(t.adminToken))
      .send({ email: "bo@acme.test", name: "Bo", password: "short" })
      .expect(400);
    expect(res.body.error).toMatch(/password/);
  });

  it("answers 404 for an unknown workspace and 401 without the admin token", async () => {
    const body = { email: "cy@acme.test", name: "Cy", password: "a long enough password" };
    await request(t.app).post("/admin/v1/workspaces/ws_nope/reviewers").set(adminAuth(t.adminToken)).send(body).expect(404);
    await request(t.app).post(`/admin/v1/workspaces/${home.workspaceId}/reviewers`).send(body).expect(401);
  });

  it("lists reviewers and removes one with 204, then 404 for the same removal", async () => {
    const gone = await createReviewer(t, home.workspaceId);
    const list = await request(t.app).get(`/admin/v1/workspaces/${home.workspaceId}/reviewers`).set(adminAuth(t.adminToken)).expect(200);
    expect(list.body.items.map((r: { email: string }) => r.email)).toContain(gone.email);
    const path = `/admin/v1/workspaces/${home.workspaceId}/reviewers/${gone.id}`;
    await request(t.app).delete(path).set(adminAuth(t.adminToken)).expect(204);
    await request(t.app).delete(path).set(adminAuth(t.adminToken)).expect(404);
  });

  it("ends a removed reviewer's access on their next request", async () => {
    const leaving = await createReviewer(t, home.workspaceId);
    const { agent } = await consoleSession(t, leaving.email, leaving.password);
    await request(t.app).delete(`/admin/v1/workspaces/${home.workspaceId}/reviewers/${leaving.id}`).set(adminAuth(t.adminToken)).expect(204);
    const res = await agent.get("/console").expect(303);
    expect(res.headers.location).toMatch(/^\/console\/sign-in/);
  });
});

describe("console sessions", () => {
  it("sets an HttpOnly, SameSite=Strict, expiring session cookie limited to /console", async () => {
    const { signInResponse } = await consoleSession(t, reviewer.email, reviewer.password);
    const cookie = (signInResponse.headers["set-cookie"] as unknown as string[]).find((c) => c.startsWith("wsi_console_session="))!;
    expect(cookie).toMatch(/; Path=\/console/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    expect(cookie).toMatch(/; Expires=/);
    expect(cookie).not.toMatch(/; Secure/);
  });

  it("marks the cookie Secure when the request came over HTTPS", async () => {
    t.app.set("trust proxy", "loopback");
    try {
      // The sign-in cookie is Secure too, so it is passed by hand: the test client speaks plain http.
      const form = await request(t.app).get("/console/sign-in").set("X-Forwarded-Proto", "https");
      const signInCookie = (form.headers["set-cookie"] as unknown as string[])[0]!.split(";")[0]!;
      const res = await request(t.app)
        .post("/console/sign-in")
        .set("X-Forwarded-Proto", "https")
        .set("Cookie", signInCookie)
        .type("form")
        .send({ _csrf: csrfFrom(form.text), email: reviewer.email, password: reviewer.password })
        .expect(303);
      expect((res.headers["set-cookie"] as unknown as string[]).join("\n")).toMatch(/wsi_console_session=[^\n]*; Secure/);
    } finally {
      t.app.set("trust proxy", false);
    }
  });

  it("stores only a hash of the session token", async () => {
    const { signInResponse } = await consoleSession(t, reviewer.email, reviewer.password);
    const token = /wsi_console_session=([^;]+)/.exec((signInResponse.headers["set-cookie"] as unknown as string[]).join(";"))![1]!;
    const hash = createHash("sha256").update(decodeURIComponent(token)).digest("hex");
    expect(await t.database.prisma.reviewerSession.count({ where: { tokenHash: hash } })).toBe(1);
    expect(await t.database.prisma.reviewerSession.count({ where: { tokenHash: token } })).toBe(0);
  });

  it("refuses a sign-in without the form's anti-forgery token with 403", async () => {
    await request(t.app).post("/console/sign-in").type("form").send({ email: reviewer.email, password: reviewer.password }).expect(403);
  });

  it("answers 401 and the form again for a wrong password", async () => {
    const agent = request.agent(t.app);
    const form = await agent.get("/console/sign-in");
    const res = await agent.post("/console/sign-in").type("form").send({ _csrf: csrfFrom(form.text), email: reviewer.email, password: "wrong password!" });
    expect(res.status).toBe(401);
    expect(res.text).toContain("Wrong email or password");
    expect(res.headers["set-cookie"]?.toString() ?? "").not.toContain("wsi_console_session=");
  });

  it("slows down repeated failed sign-ins with 429 and Retry-After, even for the right password", async () => {
    const target = await createReviewer(t, home.workspaceId);
    const agent = request.agent(t.app);
    const csrf = csrfFrom((await agent.get("/console/sign-in")).text);
    for (let i = 0; i < 5; i += 1) {
      await agent.post("/console/sign-in").type("form").send({ _csrf: csrf, email: target.email, password: `wrong guess ${i}` }).expect(401);
    }
    const res = await agent.post("/console/sign-in").type("form").send({ _csrf: csrf, email: target.email, password: target.password });
    expect(res.status).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("signs out: the old cookie no longer opens a page", async () => {
    const { agent, csrf } = await consoleSession(t, reviewer.email, reviewer.password);
    await agent.post("/console/sign-out").type("form").send({ _csrf: csrf }).expect(303);
    await agent.get("/console").expect(303);
  });

  it("sends a visitor without a session to the sign-in page, and back afterwards", async () => {
    const res = await request(t.app).get("/console/keys").expect(303);
    expect(res.headers.location).toBe("/console/sign-in?next=%2Fconsole%2Fkeys");
  });
});

describe("console forms and pages", () => {
  // One session for the block: signing in costs a deliberate scrypt hash.
  let agent: Awaited<ReturnType<typeof consoleSession>>["agent"];
  let csrf: string;
  beforeAll(async () => {
    ({ agent, csrf } = await consoleSession(t, reviewer.email, reviewer.password));
  });

  it("refuses a review form without the session's anti-forgery token with 403 and changes nothing", async () => {
    const id = await pushArtifact(t, home.auth);
    await agent.post(`/console/artifacts/${id}/validate`).type("form").send({}).expect(403);
    await agent.post(`/console/artifacts/${id}/validate`).type("form").send({ _csrf: "forged" }).expect(403);
    expect((await t.database.prisma.artifact.findUnique({ where: { workspaceId_id: { workspaceId: home.workspaceId, id } } }))?.status).toBe("draft");
  });

  it("records the reviewer's email as validatedBy, as feedback shows", async () => {
    const id = await pushArtifact(t, home.auth);
    await agent.post(`/console/artifacts/${id}/validate`).type("form").send({ _csrf: csrf }).expect(303);
    const feedback = await request(t.app).get("/api/v1/feedback?status=validated").set(home.auth).expect(200);
    expect(feedback.body.items.find((item: { artifactId: string }) => item.artifactId === id)?.validatedBy).toBe(reviewer.email);
  });

  it("answers 400 for a dispute without a reason and leaves the draft a draft", async () => {
    const id = await pushArtifact(t, home.auth);
    const res = await agent.post(`/console/artifacts/${id}/dispute`).type("form").send({ _csrf: csrf, reason: "  " }).expect(400);
    expect(res.text).toContain("Write a reason");
    expect((await t.database.prisma.artifact.findUnique({ where: { workspaceId_id: { workspaceId: home.workspaceId, id } } }))?.status).toBe("draft");
  });

  it("answers 400, never 500, for text Postgres cannot store in a path, a query string or a form", async () => {
    const id = await pushArtifact(t, home.auth);
    await agent.get("/console/artifacts/%00").expect(400);
    await agent.get(`/console/artifacts/${id}?key=%00`).expect(400);
    await agent.post(`/console/artifacts/${id}/dispute`).type("form").send({ _csrf: csrf, reason: "bad\u0000reason" }).expect(400);
    expect((await t.database.prisma.artifact.findUnique({ where: { workspaceId_id: { workspaceId: home.workspaceId, id } } }))?.status).toBe("draft");
  });

  it("answers 409 for validating an artifact that is no longer a draft", async () => {
    const id = await pushArtifact(t, home.auth);
    await agent.post(`/console/artifacts/${id}/validate`).type("form").send({ _csrf: csrf }).expect(303);
    await agent.post(`/console/artifacts/${id}/validate`).type("form").send({ _csrf: csrf }).expect(409);
  });

  it("answers 404 for another workspace's artifact, workspace and key", async () => {
    const other = await createWorkspaceWithKey(t.services);
    const foreign = await pushArtifact(t, other.auth);
    await agent.get(`/console/artifacts/${foreign}`).expect(404);
    await agent.post(`/console/artifacts/${foreign}/validate`).type("form").send({ _csrf: csrf }).expect(404);
    await agent.get(`/console?workspace=${other.workspaceId}`).expect(404);
    await agent.get(`/console/keys?workspace=${other.workspaceId}`).expect(404);
    await agent.post(`/console/keys/${other.keyId}/revoke`).type("form").send({ _csrf: csrf, workspace: home.workspaceId }).expect(404);
    await agent.get("/console/no-such-page").expect(404);
    expect((await t.database.prisma.artifact.findUnique({ where: { workspaceId_id: { workspaceId: other.workspaceId, id: foreign } } }))?.status).toBe("draft");
  });

  it("answers 400 for an unknown status filter", async () => {
    await agent.get("/console?status=everything").expect(400);
  });

  it("answers 400 with the artifact page for a reason over 2,000 characters, the admin API's sentence, and leaves the draft a draft", async () => {
    const id = await pushArtifact(t, home.auth);
    const res = await agent.post(`/console/artifacts/${id}/dispute`).type("form").send({ _csrf: csrf, reason: "x".repeat(2001) }).expect(400);
    expect(res.text).toContain("Write a reason");
    expect(res.text).toContain("reason: must be at most 2000 characters");
    expect(res.text).toContain('id="dispute-form"');
    expect((await t.database.prisma.artifact.findUnique({ where: { workspaceId_id: { workspaceId: home.workspaceId, id } } }))?.status).toBe("draft");
  });

  it("records the dispute reason without its surrounding blanks, as the admin API does", async () => {
    const id = await pushArtifact(t, home.auth);
    await agent.post(`/console/artifacts/${id}/dispute`).type("form").send({ _csrf: csrf, reason: "  Counts trials  " }).expect(303);
    const row = await t.database.prisma.artifact.findUniqueOrThrow({ where: { workspaceId_id: { workspaceId: home.workspaceId, id } } });
    expect(row).toMatchObject({ status: "disputed", disputeReason: "Counts trials", disputedBy: reviewer.email });
  });

  it("shows every status on the All tab and one status on its own tab", async () => {
    const drafted = await pushArtifact(t, home.auth, { summary: "Tabs: still a draft" });
    const validated = await pushArtifact(t, home.auth, { summary: "Tabs: now validated" });
    await agent.post(`/console/artifacts/${validated}/validate`).type("form").send({ _csrf: csrf }).expect(303);
    const all = await agent.get(`/console?workspace=${home.workspaceId}&status=all`).expect(200);
    expect(all.text).toContain(`/console/artifacts/${drafted}`);
    expect(all.text).toContain(`/console/artifacts/${validated}`);
    const onlyValidated = await agent.get(`/console?workspace=${home.workspaceId}&status=validated`).expect(200);
    expect(onlyValidated.text).toContain(`/console/artifacts/${validated}`);
    expect(onlyValidated.text).not.toContain(`/console/artifacts/${drafted}`);
  });

  it("shows a draft without a summary as a (no summary) link to its page", async () => {
    const id = await pushArtifact(t, home.auth, { summary: "" });
    const page = await agent.get(`/console?workspace=${home.workspaceId}&status=draft`).expect(200);
    expect(page.text).toMatch(new RegExp(`<a href="/console/artifacts/${id}\\?[^"]*"><span class="muted">\\(no summary\\)</span></a>`));
  });

  it.each([
    ["zero-width spaces", "\u200B\u200B"],
    ["blanks and a byte-order mark", "  \uFEFF\t "],
  ])("shows a draft whose summary is only %s as (no summary)", async (_, summary) => {
    const id = await pushArtifact(t, home.auth, { summary });
    const page = await agent.get(`/console?workspace=${home.workspaceId}&status=draft`).expect(200);
    expect(page.text).toMatch(new RegExp(`<a href="/console/artifacts/${id}\\?[^"]*"><span class="muted">\\(no summary\\)</span></a>`));
  });

  it("creates a key with chosen scopes, shows its secret once, and revokes it", async () => {
    const created = await agent
      .post("/console/keys")
      .type("form")
      .send(`_csrf=${csrf}&workspace=${home.workspaceId}&name=reporting&scopes=artifacts%3Aread&scopes=data%3Aread`)
      .expect(201);
    const secret = /value="(wsi_[^"]+)"/.exec(created.text)![1]!;
    const key = (await t.services.apiKeys.list(home.workspaceId)).find((k) => k.name === "reporting")!;
    expect(key.scopes.sort()).toEqual(["artifacts:read", "data:read"]);
    await request(t.app).get("/api/v1/data-sources").set({ Authorization: `Bearer ${secret}` }).expect(200);
    expect((await agent.get(`/console/keys?workspace=${home.workspaceId}`)).text).not.toContain(secret);
    await agent.post(`/console/keys/${key.id}/revoke`).type("form").send({ _csrf: csrf, workspace: home.workspaceId }).expect(303);
    await request(t.app).get("/api/v1/data-sources").set({ Authorization: `Bearer ${secret}` }).expect(401);
  });

  it("answers 400 for a key with an unknown scope", async () => {
    const res = await agent.post("/console/keys").type("form").send({ _csrf: csrf, workspace: home.workspaceId, name: "x", scopes: "admin:all" });
    expect(res.status).toBe(400);
  });

  it("refuses a key form in the admin API's own words, naming the form's field", async () => {
    const form = await agent.post("/console/keys").type("form").send({ _csrf: csrf, workspace: home.workspaceId, name: "x", scopes: "admin:all" }).expect(400);
    const api = await request(t.app).post(`/admin/v1/workspaces/${home.workspaceId}/keys`).set(adminAuth(t.adminToken)).send({ name: "x", scopes: ["admin:all"] }).expect(400);
    expect(api.body.error).toMatch(/^scopes\[0\]: must be one of: /);
    expect(form.text).toContain(api.body.error);
  });

  it("filters the queue by pushing key and counts per status", async () => {
    const other = await t.services.apiKeys.create(home.workspaceId, { name: "forecast-bot" });
    await pushArtifact(t, { Authorization: `Bearer ${other.key}` }, { summary: "Forecast for Q4 bookings" });
    const page = await agent.get(`/console?workspace=${home.workspaceId}&status=draft&key=${other.id}`).expect(200);
    expect(page.text).toContain("Forecast for Q4 bookings");
    expect(page.text).not.toContain("Enterprise churn doubled in Q3");
    expect(page.text).toMatch(/Drafts <span class="count">1<\/span>/);
  });
});

describe("console security headers", () => {
  it("sends a strict Content-Security-Policy with no inline script or style", async () => {
    const res = await request(t.app).get("/console/sign-in").expect(200);
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("img-src 'self' https:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("serves the script and stylesheet from this origin with a year-long cache", async () => {
    const page = await request(t.app).get("/console/sign-in");
    const script = /<script src="([^"]+)"/.exec(page.text)![1]!;
    const res = await request(t.app).get(script).expect(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["content-type"]).toMatch(/javascript/);
  });

  it("leaves the REST API's headers alone", async () => {
    const res = await request(t.app).get("/api/v1/openapi.json").expect(200);
    expect(res.headers["content-security-policy"]).toBeUndefined();
  });
});
