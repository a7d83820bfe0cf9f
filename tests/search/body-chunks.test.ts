import request from "supertest";
import { disputeArtifact, pushArtifact, validateArtifact, validatedArtifact } from "../support/artifacts";
import { createWorkspaceWithKey, importContent, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;
let ws: WorkspaceWithKey;

type ChunkRow = { part: number; text: string | null; searchable: boolean };
const bodyRows = (artifactId: string) =>
  t.database.prisma.$queryRaw<ChunkRow[]>`
    SELECT part, text, searchable FROM artifact_embeddings WHERE artifact_id = ${artifactId} AND facet = 'body' ORDER BY part`;

const bodyTextOf = async (artifactId: string) =>
  (await t.database.prisma.artifact.findFirstOrThrow({ where: { workspaceId: ws.workspaceId, id: artifactId }, select: { bodyText: true } })).bodyText;

const paragraph = (topic: string) => `${topic} ${"The figures were checked against the finance ledger and the warehouse tables. ".repeat(3)}`;

beforeAll(async () => {
  t = await createTestApp();
  ws = await createWorkspaceWithKey(t.services);
});
afterAll(() => t.close());

describe("artifact bodies embedded in chunks", () => {
  it("cuts a long body into at most 4 chunks of at most 300 characters, beside the summary vector", async () => {
    const body = ["## Findings", paragraph("Revenue fell in March."), paragraph("Refunds doubled in April."), paragraph("Churn rose in May."), paragraph("Costs held in June."), paragraph("Margins recovered in July.")].join("\n\n");
    const id = await validatedArtifact(t, ws.auth, { content: body });
    const rows = await bodyRows(id);
    expect(rows.map((row) => row.part)).toEqual([0, 1, 2, 3, 4]);
    expect(rows[0]!.text).toBeNull();
    for (const row of rows.slice(1)) expect(row.text!.length).toBeLessThanOrEqual(300);
    expect(rows[1]!.text).toMatch(/^## Findings\nRevenue fell in March\./);
  });

  it("makes no chunk for an artifact without a body", async () => {
    const id = await validatedArtifact(t, ws.auth);
    expect((await bodyRows(id)).map((row) => row.part)).toEqual([0]);
  });

  it("chunks the prose of an element tree, never its image addresses", async () => {
    const id = await validatedArtifact(t, ws.auth, {
      content: {
        root: "r",
        elements: {
          r: { type: "Section", props: {}, children: ["m", "c"] },
          m: { type: "Markdown", props: { content: "Scooter thefts fell after the new locks." } },
          c: { type: "ChartImage", props: { src: "https://files.example/locks.png", caption: "Thefts by month" } },
        },
      },
    });
    const chunks = (await bodyRows(id)).slice(1).map((row) => row.text);
    expect(chunks).toEqual(["Scooter thefts fell after the new locks.\nThefts by month"]);
  });

  // A push writes none of them (docs/performance.md, "What each change bought"): no search finds a draft.
  it("writes a draft's body text, body vector row and chunks when it is validated, searchable, and never for a disputed one", async () => {
    const id = await pushArtifact(t, ws.auth, { content: "A short body." });
    expect(await bodyRows(id)).toEqual([]);
    expect(await bodyTextOf(id)).toBeNull();
    await validateArtifact(t, id);
    expect(await bodyRows(id)).toEqual([
      { part: 0, text: null, searchable: true },
      { part: 1, text: "A short body.", searchable: true },
    ]);
    expect(await bodyTextOf(id)).toBe("A short body.");

    const disputed = await pushArtifact(t, ws.auth, { content: "Another short body." });
    await disputeArtifact(t, disputed);
    expect(await bodyRows(disputed)).toEqual([]);
    expect(await bodyTextOf(disputed)).toBeNull();
  });

  it("leaves an imported draft's body unindexed until it is validated, as a pushed one's", async () => {
    const imported = await importContent(t.services, ws.workspaceId, {
      artifacts: [{ summary: "Imported draft", why: "Backfill", confidence: 0.5, confidenceExplanation: "c", status: "draft", content: "An imported body." }],
    });
    const id = imported.artifactIds[0]!;
    expect(await bodyRows(id)).toEqual([]);
    expect(await bodyTextOf(id)).toBeNull();
    await validateArtifact(t, id);
    expect((await bodyRows(id)).map((row) => row.text)).toEqual([null, "An imported body."]);
    expect(await bodyTextOf(id)).toBe("An imported body.");
  });

  it("finds a validated draft by a word only its body holds, and embeds it after the validation", async () => {
    const other = await createWorkspaceWithKey(t.services);
    const id = await pushArtifact(t, other.auth, { summary: "Fleet report", content: "The quarantined zeppelins stayed grounded." });
    await t.services.indexer.runOnce(other.workspaceId);
    const search = () => request(t.app).get("/api/v1/artifacts").query({ query: "zeppelins" }).set(other.auth).expect(200);
    expect((await search()).body.results).toEqual([]);
    await validateArtifact(t, id);
    expect((await search()).body.results.map((r: { id: string }) => r.id)).toEqual([id]);
    const pending = () =>
      t.database.prisma.artifactEmbedding.count({ where: { workspaceId: other.workspaceId, artifactId: id, model: null } });
    // Its headline, its body and its one chunk: nothing of it was embedded while it was a draft.
    expect(await pending()).toBe(3);
    await t.services.indexer.runOnce(other.workspaceId);
    expect(await pending()).toBe(0);
  });

  it("finds an artifact by the meaning of a passage of its body that shares no word with the query", async () => {
    const other = await createWorkspaceWithKey(t.services);
    const common = { summary: "Fleet report for the third quarter", why: "Quarterly review" };
    const withBody = await validatedArtifact(t, other.auth, {
      ...common,
      content: `${paragraph("Ridership grew in every district.")}\n\nThieves took many bikes at night around the harbour.`,
    });
    const withoutBody = await validatedArtifact(t, other.auth, common);
    await t.services.indexer.runOnce(other.workspaceId);
    const res = await request(t.app).get("/api/v1/artifacts").query({ query: "stolen bicycles after dark by the port" }).set(other.auth).expect(200);
    const ids = res.body.results.map((r: { id: string }) => r.id);
    expect(ids[0]).toBe(withBody);
    const scoreOf = (id: string) => res.body.results.find((r: { id: string }) => r.id === id)?.score ?? 0;
    expect(scoreOf(withBody)).toBeGreaterThan(scoreOf(withoutBody));
  });
});
