import { readFileSync } from "node:fs";
import path from "node:path";
import request from "supertest";
import { DEMO_DOCUMENT } from "../../src/bootstrap/demo-workspace";
import { ImportDocumentSchema } from "../../src/contracts/import";
import { adminAuth, createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";
import { waitFor } from "../support/wait-for";

// A workspace exported and imported into a new one answers every read endpoint as the first does,
// but for ids (and what the export leaves out by design: keys, so feedback's `mine` audience).

const demo = JSON.parse(readFileSync(path.join(__dirname, "../..", DEMO_DOCUMENT), "utf8"));
// Bytes that are not UTF-8 (a lone 0xff) in a file whose name says text: exported as base64.
const BINARY_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00, 0x01, 0xfe, 0x10, 0x20]);

let t: TestApp;
let source: WorkspaceWithKey;
let target: WorkspaceWithKey;
let exported: request.Response;
let document: Record<string, unknown>;

const admin = () => adminAuth(t.adminToken);

async function push(ws: WorkspaceWithKey, body: Record<string, unknown>): Promise<string> {
  const res = await request(t.app).post("/api/v1/artifacts").set(ws.auth).send(body).expect(201);
  return res.body.artifactId as string;
}

async function embedded(workspaceId: string) {
  await waitFor(
    async () => {
      await t.services.indexer.runOnce(workspaceId);
      const state = await t.services.indexer.state(workspaceId);
      return Object.values(state.tables).every((table) => table.pending === 0);
    },
    { what: `the vectors of ${workspaceId}` },
  );
}

beforeAll(async () => {
  t = await createTestApp();
  source = await createWorkspaceWithKey(t.services, { workspaceName: "Acme Cloud", keyName: "analyst-agent" });
  await request(t.app).post(`/admin/v1/workspaces/${source.workspaceId}/import`).set(admin()).send(demo).expect(200);
  await request(t.app)
    .post(`/admin/v1/workspaces/${source.workspaceId}/import`)
    .set(admin())
    .send({
      skills: [
        {
          name: "binary-kit",
          description: "A skill with bytes that are not text",
          source: "authored",
          files: [
            { path: "SKILL.md", content: "# Binary kit\n\nUse `data/sample.bin`.\n" },
            { path: "data/sample.bin", contentBase64: BINARY_BYTES.toString("base64") },
          ],
        },
      ],
    })
    .expect(200);
  // Agents' pushes: one left a draft, one validated by a person later, one disputed with a reason.
  await push(source, { summary: "Draft: trial conversions dipped in EMEA", why: "Pipeline risk", confidence: 0.55, confidenceExplanation: "Six weeks of trials", content: "## Trials\nConversions fell." });
  const validated = await push(source, {
    summary: "Enterprise churn doubled in Q3",
    why: "Losing large accounts erodes recurring revenue",
    confidence: "0.8",
    confidenceExplanation: "14 months of subscription data",
    keyFindings: ["Churn 4.1% -> 8.3%", "Concentrated in EMEA"],
    recommendations: [{ type: "warning", text: "Check renewals due in Q4" }],
    dataSources: [{ type: "database", name: "warehouse" }],
    codeExecuted: [{ language: "sql", code: "SELECT 1" }],
    sourceSystem: "notebook",
    content: { root: "s", elements: { s: { type: "Section", props: { title: "Churn" }, children: ["m"] }, m: { type: "Markdown", props: { text: "Enterprise churn **doubled**." } } } },
  });
  const disputed = await push(source, { summary: "Net revenue retention fell to 96%", why: "Expansion slowed", confidence: 0.7, confidenceExplanation: "Finance lake", content: "NRR fell." });
  await request(t.app).post(`/admin/v1/workspaces/${source.workspaceId}/artifacts/${validated}/validate`).set(admin()).send({ by: "ana@acme.example" }).expect(200);
  await request(t.app)
    .post(`/admin/v1/workspaces/${source.workspaceId}/artifacts/${disputed}/dispute`)
    .set(admin())
    .send({ by: "ben@acme.example", reason: "Counts test accounts" })
    .expect(200);

  exported = await request(t.app).get(`/admin/v1/workspaces/${source.workspaceId}/export`).set(admin()).buffer(true);
  document = JSON.parse(exported.text);
  target = await createWorkspaceWithKey(t.services, { workspaceName: "Acme Cloud" });
  await request(t.app).post(`/admin/v1/workspaces/${target.workspaceId}/import`).set(admin()).send(document).expect(200);
  await embedded(source.workspaceId);
  await embedded(target.workspaceId);
});
afterAll(() => t.close());

/** Ids are the workspace's own; download links are signed afresh on every answer. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== "object") return value;
  const kept = Object.entries(value).filter(([key]) => !["id", "artifactId", "memoryId", "url", "previousArtifactId"].includes(key));
  return Object.fromEntries(kept.map(([key, inner]) => [key, withoutIds(inner)]));
}

async function bothAnswer(url: string) {
  const [a, b] = await Promise.all([request(t.app).get(url).set(source.auth), request(t.app).get(url).set(target.auth)]);
  expect(a.status).toBe(200);
  return { source: a.body, target: b.body, status: b.status };
}

async function sameAnswer(url: string) {
  const answers = await bothAnswer(url);
  expect(answers.status).toBe(200);
  expect(withoutIds(answers.target)).toEqual(withoutIds(answers.source));
  return answers;
}

describe("a workspace exported and imported into a new one", () => {
  it("exports a document the import schema accepts, with every section", () => {
    expect(exported.status).toBe(200);
    expect(exported.headers["content-type"]).toMatch(/^application\/json/);
    const parsed = ImportDocumentSchema.safeParse(document);
    expect(parsed.success).toBe(true);
    expect(Object.keys(document)).toEqual(["context", "directives", "dataSources", "skills", "memories", "artifacts"]);
    expect(document.memories).toHaveLength(demo.memories.length);
    expect(document.artifacts).toHaveLength(demo.artifacts.length + 3);
    expect((document.skills as unknown[]).length).toBe(demo.skills.length + 1);
  });

  it("writes text files as content and other bytes as base64, a disabled skill included", () => {
    const skills = document.skills as Array<{ name: string; enabled: boolean; files: Array<{ path: string; content?: string; contentBase64?: string }> }>;
    const kit = skills.find((skill) => skill.name === "binary-kit")!;
    expect(kit.files.find((file) => file.path === "SKILL.md")).toMatchObject({ content: "# Binary kit\n\nUse `data/sample.bin`.\n" });
    expect(Buffer.from(kit.files.find((file) => file.path === "data/sample.bin")!.contentBase64!, "base64")).toEqual(BINARY_BYTES);
    expect(skills.find((skill) => skill.name === "legacy-kpi-export")).toMatchObject({ enabled: false });
  });

  it("writes pushes with their key's name and every review field, and leaves out what it documents it leaves out", () => {
    const artifacts = document.artifacts as Array<Record<string, unknown>>;
    expect(artifacts.find((a) => a.status === "draft")).toMatchObject({ pushedBy: "analyst-agent" });
    expect(artifacts.find((a) => a.summary === "Enterprise churn doubled in Q3")).toMatchObject({ pushedBy: "analyst-agent", validatedBy: "ana@acme.example", validatedAt: expect.any(Number) });
    expect(artifacts.find((a) => a.status === "disputed")).toMatchObject({ disputedBy: "ben@acme.example", disputeReason: "Counts test accounts", disputedAt: expect.any(Number) });
    expect(exported.text).not.toMatch(/wsi_|key_|ws_|"embedding"|idempotency/);
  });

  it("exports the new workspace as it exported the first", async () => {
    const again = await request(t.app).get(`/admin/v1/workspaces/${target.workspaceId}/export`).set(admin()).buffer(true);
    const byText = (a: { statement: string }, b: { statement: string }) => a.statement.localeCompare(b.statement);
    const normalised = (doc: Record<string, unknown>) => ({ ...doc, memories: [...(doc.memories as Array<{ statement: string }>)].sort(byText) });
    expect(withoutIds(normalised(JSON.parse(again.text)))).toEqual(withoutIds(normalised(document)));
  });

  it("answers the briefing the same", async () => {
    await sameAnswer("/api/v1/briefing");
  });

  it.each(["how do we define a churned account", "fiscal year", "which revenue figure to report"])("recalls the same memories for %s", async (query) => {
    const { source: answer } = await sameAnswer(`/api/v1/memories?query=${encodeURIComponent(query)}`);
    expect(answer.hits.length).toBeGreaterThan(0);
  });

  it("lists the same data sources, and answers the same query intelligence for each", async () => {
    const { source: list } = await sameAnswer("/api/v1/data-sources");
    for (const { name } of list.items as Array<{ name: string }>) {
      await sameAnswer(`/api/v1/data-sources/${encodeURIComponent(name)}/query-intelligence?question=${encodeURIComponent("revenue by quarter")}`);
    }
  });

  it("lists the same skills, and serves the same text file and the same bytes of binary files", async () => {
    const { source: list } = await sameAnswer("/api/v1/skills");
    await sameAnswer(`/api/v1/skills/churn-analysis/files?path=SKILL.md`);
    for (const [skill, file] of [["churn-analysis", "assets/retention-curve-example.png"], ["binary-kit", "data/sample.bin"]]) {
      const answers = await sameAnswer(`/api/v1/skills/${skill}/files?path=${encodeURIComponent(file!)}`);
      const bytes = async (url: string) => (await request(t.app).get(new URL(url).pathname).buffer(true).parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => done(null, Buffer.concat(chunks)));
      })).body as Buffer;
      const [a, b] = [await bytes(answers.source.url), await bytes(answers.target.url)];
      expect(b.equals(a)).toBe(true);
      if (skill === "binary-kit") expect(b.equals(BINARY_BYTES)).toBe(true);
    }
    expect((list.items as unknown[]).length).toBe(3);
  });

  it.each(["big clients cancelling more", "net revenue retention", "board deck metrics by fiscal quarter"])(
    "finds the same artifacts for %s, and fetches each the same",
    async (query) => {
      const { source: found, target: foundThere } = await sameAnswer(`/api/v1/artifacts?query=${encodeURIComponent(query)}&limit=10`);
      expect(found.results.length).toBeGreaterThan(0);
      for (const [index, result] of (found.results as Array<{ id: string }>).entries()) {
        const a = await request(t.app).get(`/api/v1/artifacts/${result.id}`).set(source.auth).expect(200);
        const b = await request(t.app).get(`/api/v1/artifacts/${foundThere.results[index].id}`).set(target.auth).expect(200);
        expect(withoutIds(b.body)).toEqual(withoutIds(a.body));
      }
    },
  );

  it.each(["", "&status=draft", "&status=validated", "&status=disputed"])("answers the same workspace feedback (%s)", async (filter) => {
    const { source: feedback } = await sameAnswer(`/api/v1/feedback?audience=workspace&limit=100${filter}`);
    expect(feedback.items.length).toBeGreaterThan(0);
  });

  it("keeps the import schema's answer for a document exported from an empty workspace", async () => {
    const empty = await createWorkspaceWithKey(t.services);
    const res = await request(t.app).get(`/admin/v1/workspaces/${empty.workspaceId}/export`).set(admin()).buffer(true);
    expect(JSON.parse(res.text)).toEqual({ context: null, directives: [], dataSources: [], skills: [], memories: [], artifacts: [] });
  });

  it("sends the document written in full, with its length in bytes", () => {
    expect(exported.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(exported.headers["content-length"])).toBe(Buffer.byteLength(exported.text));
  });

  it("refuses with 409, before sending anything, a workspace holding a name the import would refuse", async () => {
    const old = await createWorkspaceWithKey(t.services);
    await t.database.prisma.skill.create({ data: { id: "skl_legacyName0000000000000", workspaceId: old.workspaceId, name: "Legacy_Kit", description: "Stored before the rules", source: "uploaded", allowedTools: [] }, select: { id: true } });
    const res = await request(t.app).get(`/admin/v1/workspaces/${old.workspaceId}/export`).set(admin());
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(
      "Cannot export skills[0].name: must be lowercase letters, digits and single hyphens, 1 to 64 characters (e.g. churn-analysis); the import would refuse it (fix it, or delete it, and export again)",
    );
    await request(t.app).delete(`/admin/v1/workspaces/${old.workspaceId}/skills/Legacy_Kit`).set(admin()).expect(204);
    await request(t.app).get(`/admin/v1/workspaces/${old.workspaceId}/export`).set(admin()).expect(200);
  });

  it("answers 404 naming an unknown workspace, and 401 without the admin token", async () => {
    const res = await request(t.app).get("/admin/v1/workspaces/ws_unknown/export").set(admin());
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "Workspace ws_unknown not found", code: "not_found" });
    await request(t.app).get(`/admin/v1/workspaces/${source.workspaceId}/export`).expect(401);
  });
});
