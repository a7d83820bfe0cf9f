import request from "supertest";
import { BODY_TEXT_BUDGET } from "../../src/search/artifact-body-text";
import { CONTENT_JSON_LIMIT, MAX_BODY_ELEMENTS, MAX_TABLE_ROWS, MAX_TEXT_CHARS } from "../../src/console/render-limits";
import { pushArtifact, validateArtifact } from "../support/artifacts";
import { consoleSession, createReviewer } from "../support/console";
import { createWorkspaceWithKey, type WorkspaceWithKey } from "../support/factories";
import { createTestApp, type TestApp } from "../support/test-app";

const ROWS = 100_000;
/** The page of a body at every cap stays far below the 3.5 MB it was when every row was rendered. */
const PAGE_BYTES_BOUND = 50_000;

let t: TestApp;
let home: WorkspaceWithKey;
let bigTableId: string;
let smallId: string;

const tree = (elements: Record<string, unknown>, children = Object.keys(elements)) => ({
  root: "root",
  elements: { root: { type: "Section", props: { title: "Report" }, children }, ...elements },
});

const bigTable = tree({
  table: {
    type: "DataTable",
    props: {
      columns: ["mrr"],
      rows: Array.from({ length: ROWS }, (_, i) => [i]),
      caption: "Every account",
    },
  },
});

async function medianMs(call: () => Promise<unknown>, times = 3): Promise<number> {
  const elapsed: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    await call();
    elapsed.push(performance.now() - started);
  }
  return elapsed.sort((a, b) => a - b)[Math.floor(times / 2)] ?? Number.NaN;
}

const trCount = (page: string) => page.match(/<tr>/g)?.length ?? 0;

beforeAll(async () => {
  t = await createTestApp();
  home = await createWorkspaceWithKey(t.services, { keyName: "table-bot" });
  bigTableId = await pushArtifact(t, home.auth, { content: bigTable });
  smallId = await pushArtifact(t, home.auth, { content: "A short **Markdown** body." });
});
afterAll(() => t.close());

describe("the artifact page of a draft with a 100,000-row table", () => {
  it("answers in well under a second (or ten short pages on a busy machine) with at most the row cap and a note for the rest", async () => {
    const reviewer = await createReviewer(t, home.workspaceId);
    const { agent } = await consoleSession(t, reviewer.email, reviewer.password);
    // The first page of the app loads the local embedder for the similar panel, which no body changes.
    await agent.get(`/console/artifacts/${smallId}`).expect(200);
    // Beside the page of a short body, timed in the same run, so that a busy machine slows both.
    const small = await medianMs(() => agent.get(`/console/artifacts/${smallId}`).expect(200));
    const big = await medianMs(() => agent.get(`/console/artifacts/${bigTableId}`).expect(200));
    const res = await agent.get(`/console/artifacts/${bigTableId}`).expect(200);
    const bytes = Buffer.byteLength(res.text);
    expect(big).toBeLessThan(Math.max(1_000, 10 * small));
    expect(trCount(res.text)).toBeLessThanOrEqual(MAX_TABLE_ROWS + 1);
    expect(res.text).toContain(`${(ROWS - MAX_TABLE_ROWS).toLocaleString("en")} more rows not shown`);
    expect(bytes).toBeLessThan(PAGE_BYTES_BOUND);
    expect(res.text).toContain(`href="/console/artifacts/${bigTableId}/content.json"`);
  });
});

describe("the content as JSON", () => {
  it("serves the artifact's content as application/json, cut with a note past the cap", async () => {
    const reviewer = await createReviewer(t, home.workspaceId);
    const { agent } = await consoleSession(t, reviewer.email, reviewer.password);
    const res = await agent.get(`/console/artifacts/${bigTableId}/content.json`).expect(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["cache-control"]).toBe("no-store");
    const full = JSON.stringify(bigTable);
    expect(res.body).toMatchObject({ artifactId: bigTableId, contentChars: full.length, contentTruncated: full.length > CONTENT_JSON_LIMIT });
    if (res.body.contentTruncated) {
      expect(res.body.note).toMatch(/first .* characters/);
      expect(res.body.content).toBe(full.slice(0, CONTENT_JSON_LIMIT));
    } else {
      expect(res.body.content).toEqual(bigTable);
    }
  });

  it("serves a content whose JSON fits as stored", async () => {
    const content = tree({ note: { type: "Markdown", props: { content: "Churn **doubled**." } } });
    const id = await pushArtifact(t, home.auth, { content });
    const reviewer = await createReviewer(t, home.workspaceId);
    const { agent } = await consoleSession(t, reviewer.email, reviewer.password);
    const res = await agent.get(`/console/artifacts/${id}/content.json`).expect(200);
    expect(res.body).toEqual({ artifactId: id, contentChars: JSON.stringify(content).length, contentTruncated: false, content });
  });

  it("cuts a content longer than the cap and says so", async () => {
    const long = "word ".repeat(Math.ceil((CONTENT_JSON_LIMIT + 10) / 5));
    const id = await pushArtifact(t, home.auth, { content: long });
    const reviewer = await createReviewer(t, home.workspaceId);
    const { agent } = await consoleSession(t, reviewer.email, reviewer.password);
    const res = await agent.get(`/console/artifacts/${id}/content.json`).expect(200);
    expect(res.body.contentTruncated).toBe(true);
    expect(res.body.content).toBe(JSON.stringify(long).slice(0, CONTENT_JSON_LIMIT));
    expect(res.body.note).toContain(`first ${CONTENT_JSON_LIMIT.toLocaleString("en")} characters`);
  });

  it("answers 404 to a reviewer of another workspace", async () => {
    const other = await createWorkspaceWithKey(t.services, { keyName: "other-bot" });
    const outsider = await createReviewer(t, other.workspaceId);
    const { agent } = await consoleSession(t, outsider.email, outsider.password);
    await agent.get(`/console/artifacts/${bigTableId}/content.json`).expect(404);
  });

  it("sends a visitor who is not signed in to the sign-in page", async () => {
    const res = await request(t.app).get(`/console/artifacts/${bigTableId}/content.json`).expect(303);
    expect(res.headers.location).toMatch(/^\/console\/sign-in/);
  });
});

describe("other bounded parts of a body", () => {
  it("renders at most the element cap of a body, with a note for the rest", async () => {
    const count = MAX_BODY_ELEMENTS + 250;
    const elements = Object.fromEntries(
      Array.from({ length: count }, (_, i) => [`c${i}`, { type: "Callout", props: { type: "info", text: `callout ${i}` } }]),
    );
    const id = await pushArtifact(t, home.auth, { content: tree(elements) });
    const reviewer = await createReviewer(t, home.workspaceId);
    const { agent } = await consoleSession(t, reviewer.email, reviewer.password);
    const res = await agent.get(`/console/artifacts/${id}`).expect(200);
    const shown = res.text.match(/data-block="Callout"/g)?.length ?? 0;
    // The root Section is an element of the body too.
    expect(shown).toBe(MAX_BODY_ELEMENTS - 1);
    expect(res.text).toContain(`${(count + 1 - MAX_BODY_ELEMENTS).toLocaleString("en")} more elements not shown`);
  });

  it("cuts a long Markdown body at the text cap, with a note", async () => {
    const body = `${"a".repeat(MAX_TEXT_CHARS)}TAILMARKER${"b".repeat(5_000)}`;
    const id = await pushArtifact(t, home.auth, { content: body });
    const reviewer = await createReviewer(t, home.workspaceId);
    const { agent } = await consoleSession(t, reviewer.email, reviewer.password);
    const res = await agent.get(`/console/artifacts/${id}`).expect(200);
    expect(res.text).not.toContain("TAILMARKER");
    expect(res.text).toContain(`${(body.length - MAX_TEXT_CHARS).toLocaleString("en")} more characters not shown`);
  });
});

describe("the indexed text of the artifact once validated", () => {
  it("is at most the body text budget", async () => {
    const id = await pushArtifact(t, home.auth, { content: bigTable });
    await validateArtifact(t, id);
    const row = await t.database.prisma.artifact.findFirstOrThrow({ where: { workspaceId: home.workspaceId, id }, select: { bodyText: true } });
    expect(row.bodyText!.length).toBeLessThanOrEqual(BODY_TEXT_BUDGET);
    expect(row.bodyText).toMatch(/^Report\n\nEvery account\n\nmrr\n\n0\n\n1\n\n2\n\n/);
  });
});
