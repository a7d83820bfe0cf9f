import request from "supertest";
import { generateApiKeySecret, hashApiKeySecret } from "../../src/auth/api-key-secret";
import type { SqlExecutor } from "../../src/db/migrations";
import { adminAuth, createKey } from "../support/factories";
import { migrationsFrom, stageDatabaseBefore } from "../support/staged-database";
import { createTestApp } from "../support/test-app";

// Drafts pushed before `body_chunks_when_validated` hold the body text and chunks that a
// validation now writes: the migration clears them, and a validation after it writes them again.

const MIGRATION = "20261206090000_body_chunks_when_validated";
const SECRET = generateApiKeySecret();

async function fill(sql: SqlExecutor): Promise<void> {
  await sql.exec(
    `INSERT INTO organizations (id, name) VALUES ('org_a', 'Acme');
     INSERT INTO workspaces (id, organization_id, name, updated_at) VALUES ('ws_a', 'org_a', 'Analytics', now());
     INSERT INTO api_keys (id, workspace_id, name, hash, start, scopes) VALUES ('key_a', 'ws_a', 'churn-bot', '${hashApiKeySecret(SECRET)}', '${SECRET.slice(0, 8)}', '{}');
     INSERT INTO artifacts (id, workspace_id, status, trigger, summary, why, confidence, confidence_explanation, content, body_text, created_by_key_id, created_by, updated_at) VALUES
       ('art_validated', 'ws_a', 'validated', 'external', 'Enterprise churn doubled', 'Retention', 0.8, 'Ledger', '"Harbour thefts rose."', 'Harbour thefts rose.', 'key_a', 'churn-bot', now()),
       ('art_draft', 'ws_a', 'draft', 'external', 'Fleet report', 'Operations', 0.5, 'One quarter', '"The quarantined zeppelins stayed grounded."', 'The quarantined zeppelins stayed grounded.', 'key_a', 'churn-bot', now()),
       ('art_disputed', 'ws_a', 'disputed', 'external', 'Discounts slow renewals', 'Pricing', 0.5, 'One quarter', '"Renewals lagged."', 'Renewals lagged.', 'key_a', 'churn-bot', now());
     INSERT INTO artifact_embeddings (id, artifact_id, facet, workspace_id, searchable) VALUES
       ('art_validated:headline', 'art_validated', 'headline', 'ws_a', true), ('art_validated:body', 'art_validated', 'body', 'ws_a', true),
       ('art_draft:headline', 'art_draft', 'headline', 'ws_a', false), ('art_draft:body', 'art_draft', 'body', 'ws_a', false),
       ('art_disputed:headline', 'art_disputed', 'headline', 'ws_a', false), ('art_disputed:body', 'art_disputed', 'body', 'ws_a', false)`,
  );
}

/** Each artifact's body text and the parts of its body vectors. */
async function indexed(sql: SqlExecutor) {
  const rows = await sql.query<{ id: string; body_text: string | null; parts: number[] }>(
    `SELECT a.id, a.body_text, array_agg(e.part ORDER BY e.part) AS parts
     FROM artifacts a JOIN artifact_embeddings e ON e.workspace_id = a.workspace_id AND e.artifact_id = a.id AND e.facet = 'body'
     GROUP BY a.id, a.body_text ORDER BY a.id`,
  );
  return rows;
}

describe(`migration ${MIGRATION} on a database with data`, () => {
  it("clears the body text and chunks of drafts and disputed artifacts, and a later validation writes them again", async () => {
    const staged = await stageDatabaseBefore(MIGRATION);
    try {
      await fill(staged.sql);
      expect(await indexed(staged.sql)).toEqual([
        { id: "art_disputed", body_text: "Renewals lagged.", parts: [0, 1] },
        { id: "art_draft", body_text: "The quarantined zeppelins stayed grounded.", parts: [0, 1] },
        { id: "art_validated", body_text: "Harbour thefts rose.", parts: [0, 1] },
      ]);
      const counted = `SELECT count(*)::int AS n FROM search_term_counts WHERE workspace_id = 'ws_a'`;
      const words = await staged.sql.query(counted);

      expect(await staged.migrate()).toEqual(migrationsFrom(MIGRATION));
      expect(await indexed(staged.sql)).toEqual([
        { id: "art_disputed", body_text: null, parts: [0] },
        { id: "art_draft", body_text: null, parts: [0] },
        { id: "art_validated", body_text: "Harbour thefts rose.", parts: [0, 1] },
      ]);
      expect(await staged.sql.query(counted)).toEqual(words);

      const t = await createTestApp({ database: staged.open() });
      try {
        await request(t.app).post("/admin/v1/artifacts/art_draft/validate").set(adminAuth(t.adminToken)).send({ by: "ana@acme.test" }).expect(200);
        expect((await indexed(staged.sql))[1]).toEqual({ id: "art_draft", body_text: "The quarantined zeppelins stayed grounded.", parts: [0, 1] });
        const reader = await createKey(t.services, "ws_a");
        const found = await request(t.app).get("/api/v1/artifacts?query=zeppelins").set(reader.auth).expect(200);
        expect(found.body.results.map((result: { id: string }) => result.id)).toEqual(["art_draft"]);
      } finally {
        await t.close();
      }
    } finally {
      await staged.close();
    }
  });
});
