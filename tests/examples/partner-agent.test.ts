import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { createServer as createNetServer } from "node:net";
import { runPartnerAgent } from "../../examples/partner-agent/agent";
import { describeFailure } from "../../examples/partner-agent/connection-error";
import { DEMO_DOCUMENT } from "../../src/bootstrap/demo-workspace";
import { adminAuth, createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

let t: TestApp;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  t = await createTestApp();
  server = t.app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const QUESTION = "How did enterprise churn move last quarter?";

async function analyticsWorkspace(): Promise<WorkspaceWithKey> {
  const ws = await createWorkspaceWithKey(t.services, { keyName: "partner-agent" });
  await importContent(t.services, ws.workspaceId, {
    context: "B2B SaaS. Fiscal year starts in April.",
    directives: [{ name: "No PII", content: "Never select email columns." }],
    memories: [{ type: "definition", statement: "Churn means a subscription not renewed within 30 days of its end." }],
    dataSources: [
      {
        name: "warehouse",
        connectorType: "postgres",
        status: "connected",
        queryPatterns: [{ question: "enterprise churn by quarter", sql: "SELECT quarter, churn_rate FROM churn_by_quarter", successCount: 9 }],
        errorLearnings: [{ failedSql: "SELECT quarter FROM subs", errorMessage: "no column quarter", learning: "Use fiscal_quarter." }],
      },
    ],
  });
  return ws;
}

/** Plays the reviewer over HTTP: waits for a draft in the admin review queue and returns its id. */
async function nextDraftInQueue(ws: WorkspaceWithKey): Promise<string> {
  const admin = { Authorization: `Bearer ${t.adminToken}` };
  return waitFor(
    async () => {
      const res = await fetch(`${baseUrl}/admin/v1/workspaces/${ws.workspaceId}/artifacts?status=draft`, { headers: admin });
      const { items } = (await res.json()) as { items: Array<{ id: string }> };
      return items[0]?.id;
    },
    { what: "the agent's draft in the review queue", everyMs: 50 },
  );
}

async function review(artifactId: string, verdict: "validate" | "dispute", body: Record<string, string>) {
  const res = await fetch(`${baseUrl}/admin/v1/artifacts/${artifactId}/${verdict}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${t.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

/** Later drafts by the same key, so the agent's own draft is no longer on the first feedback page. */
async function pushOtherDrafts(ws: WorkspaceWithKey, count: number) {
  for (let i = 0; i < count; i += 1) {
    const res = await fetch(`${baseUrl}/api/v1/artifacts`, {
      method: "POST",
      headers: { ...ws.auth, "Content-Type": "application/json" },
      body: JSON.stringify({ summary: `Other finding ${i}`, why: "w", confidence: 0.5, confidenceExplanation: "e" }),
    });
    expect(res.status).toBe(201);
  }
}

describe("the example partner agent against the real app on loopback", () => {
  it("reads, pushes a draft, and learns it was validated, following nextCursor to find it", async () => {
    const ws = await analyticsWorkspace();
    const lines: string[] = [];
    const agent = runPartnerAgent({ baseUrl, apiKey: ws.key, question: QUESTION, pollIntervalMs: 50, timeoutMs: 20_000, feedbackPageSize: 2, log: (line) => lines.push(line) });

    const draftId = await nextDraftInQueue(ws);
    await pushOtherDrafts(ws, 3);
    await review(draftId, "validate", { by: "ana@acme.example" });

    expect(await agent).toEqual({
      artifactId: draftId,
      idempotencyKey: expect.stringMatching(/^partner-agent-/),
      replayed: false,
      status: "validated",
      validatedBy: "ana@acme.example",
    });
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^briefing: Workspace \d+, 1 directives, 1 rules and definitions$/),
        "memories: 1 recalled",
        "query intelligence of warehouse: 1 patterns, 1 learnings",
      ]),
    );
    const pushed = (await fetch(`${baseUrl}/api/v1/artifacts/${draftId}`, { headers: ws.auth }).then((res) => res.json())) as { content: string };
    expect(pushed.content).toContain("SELECT quarter, churn_rate FROM churn_by_quarter");
    expect(pushed.content).toContain("Avoid: Use fiscal_quarter.");
  });

  it("with only API_KEY against the demo workspace, cites the source that answers the churn question", async () => {
    const ws = await createWorkspaceWithKey(t.services, { workspaceName: "Demo", keyName: "partner-agent" });
    const demo = JSON.parse(readFileSync(path.join(__dirname, "../..", DEMO_DOCUMENT), "utf8"));
    await fetch(`${baseUrl}/admin/v1/workspaces/${ws.workspaceId}/import`, {
      method: "POST",
      headers: { ...adminAuth(t.adminToken), "Content-Type": "application/json" },
      body: JSON.stringify(demo),
    }).then((res) => expect(res.status).toBe(200));
    await t.services.indexer.runOnce();
    const lines: string[] = [];
    const agent = runPartnerAgent({ baseUrl, apiKey: ws.key, question: QUESTION, pollIntervalMs: 50, timeoutMs: 20_000, log: (line) => lines.push(line) });
    const draftId = await nextDraftInQueue(ws);
    await review(draftId, "validate", { by: "ana@acme.example" });
    await agent;

    const churnSql = (demo.dataSources as Array<{ name: string; queryPatterns: Array<{ question: string; sql: string }> }>)
      .find((source) => source.name === "warehouse")!
      .queryPatterns.find((pattern) => pattern.question === "Monthly logo churn by plan")!.sql;
    const pushed = (await fetch(`${baseUrl}/api/v1/artifacts/${draftId}`, { headers: ws.auth }).then((res) => res.json())) as { dataSources: Array<{ name: string }>; content: string };
    expect(pushed.dataSources).toEqual([{ type: "database", name: "warehouse" }]);
    expect(pushed.content).toContain(churnSql);
    expect(pushed.content).not.toMatch(/weekly active|toStartOfWeek/i);
    expect(lines).toContain(`data source: warehouse (cited by the validated artifact "Enterprise logo churn fell to 0.8% a month in FY26 Q2")`);
  });

  it("pushes with the Idempotency-Key it was given, which the service records against the draft", async () => {
    const ws = await analyticsWorkspace();
    const agent = runPartnerAgent({ baseUrl, apiKey: ws.key, question: QUESTION, idempotencyKey: "job-42", pollIntervalMs: 50, timeoutMs: 20_000 });
    const draftId = await nextDraftInQueue(ws);
    await review(draftId, "validate", { by: "ana@acme.example" });
    expect(await agent).toMatchObject({ artifactId: draftId, idempotencyKey: "job-42" });
    const record = await t.database.prisma.idempotencyRecord.findFirst({ where: { workspaceId: ws.workspaceId, idempotencyKey: "job-42" } });
    expect(record?.responseBody).toEqual({ artifactId: draftId, status: "draft" });
  });

  it("learns a dispute and its reason", async () => {
    const ws = await analyticsWorkspace();
    const agent = runPartnerAgent({ baseUrl, apiKey: ws.key, question: QUESTION, pollIntervalMs: 50, timeoutMs: 20_000 });
    await review(await nextDraftInQueue(ws), "dispute", { by: "ana@acme.example", reason: "Counts test accounts" });
    expect(await agent).toMatchObject({ status: "disputed", disputeReason: "Counts test accounts" });
  });

  it("stops with the API's error when the key is wrong", async () => {
    await expect(runPartnerAgent({ baseUrl, apiKey: "wsi_wrong", question: QUESTION })).rejects.toThrow(
      /GET \/api\/v1\/briefing failed: 401 unauthorized/,
    );
  });

  it("names the address it tried, and BASE_URL, when nothing answers there", async () => {
    // A port that was free a moment ago: nothing listens on it.
    const probe = createNetServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => probe.once("listening", resolve));
    const closedUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
    await new Promise((resolve) => probe.close(resolve));
    const failure = await runPartnerAgent({ baseUrl: closedUrl, apiKey: "wsi_any", question: QUESTION }).catch((error: unknown) => error);
    expect(describeFailure(failure, closedUrl)).toBe(
      `Could not reach the service at ${closedUrl} (ECONNREFUSED). Start it with npm run dev, or set BASE_URL to where it runs.`,
    );
  });

  it("passes the API's own error message through", () => {
    expect(describeFailure(new Error("GET /api/v1/briefing failed: 401 unauthorized"), baseUrl)).toBe("GET /api/v1/briefing failed: 401 unauthorized");
  });
});
