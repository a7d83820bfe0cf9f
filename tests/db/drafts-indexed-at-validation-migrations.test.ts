import request from "supertest";
import { generateApiKeySecret, hashApiKeySecret } from "../../src/auth/api-key-secret";
import type { SqlExecutor } from "../../src/db/migrations";
import { adminAuth, createKey } from "../support/factories";
import { migrationsFrom, stageDatabaseBefore } from "../support/staged-database";
import { createTestApp } from "../support/test-app";

// Drafts pushed before `body_chunks_when_validated` and `drafts_without_vectors` hold the body text,
// chunks, vector rows and memory-bank entry that a validation now writes: the migrations remove
// them, and a validation after them writes them again.

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
       ('art_disputed:headline', 'art_disputed', 'headline', 'ws_a', false), ('art_disputed:body', 'art_disputed', 'body', 'ws_a', false);
     INSERT INTO memories (id, workspace_id, type, statement, active, artifact_id) VALUES
       ('mem_validated', 'ws_a', 'finding', 'Enterprise churn doubled', true, 'art_validated'),
       ('mem_draft', 'ws_a', 'finding', 'Fleet report', false, 'art_draft'),
       ('mem_disputed', 'ws_a', 'finding', 'Discounts slow renewals', false, 'art_disputed'),
       ('mem_ledger', 'ws_a', 'finding', 'Fiscal years start in April', true, NULL)`,
  );
}

/** Each artifact's body text, its vector rows (facet and part) and its memory-bank entries (active or not). */
async function indexed(sql: SqlExecutor) {
  return sql.query<{ id: string; body_text: string | null; vectors: string[] | null; memories: boolean[] | null }>(
    `SELECT a.id, a.body_text,
       (SELECT array_agg(e.facet || ':' || e.part || ':' || e.searchable ORDER BY e.facet::text, e.part) FROM artifact_embeddings e
        WHERE e.workspace_id = a.workspace_id AND e.artifact_id = a.id) AS vectors,
       (SELECT array_agg(m.active) FROM memories m WHERE m.workspace_id = a.workspace_id AND m.artifact_id = a.id) AS memories
     FROM artifacts a ORDER BY a.id`,
  );
}

describe(`migrations from ${MIGRATION} on a database with data`, () => {
  it("clear the body text, chunks, vector rows and memory-bank entries of drafts and disputed artifacts, and a later validation writes them again", async () => {
    const staged = await stageDatabaseBefore(MIGRATION);
    try {
      await fill(staged.sql);
      const validated = { id: "art_validated", body_text: "Harbour thefts rose.", vectors: ["body:0:true", "body:1:true", "headline:0:true"], memories: [true] };
      expect(await indexed(staged.sql)).toEqual([
        { id: "art_disputed", body_text: "Renewals lagged.", vectors: ["body:0:false", "body:1:false", "headline:0:false"], memories: [false] },
        { id: "art_draft", body_text: "The quarantined zeppelins stayed grounded.", vectors: ["body:0:false", "body:1:false", "headline:0:false"], memories: [false] },
        validated,
      ]);
      const counted = `SELECT count(*)::int AS n FROM search_term_counts WHERE workspace_id = 'ws_a'`;
      const words = await staged.sql.query(counted);

      expect(await staged.migrate()).toEqual(migrationsFrom(MIGRATION));
      expect(await indexed(staged.sql)).toEqual([
        { id: "art_disputed", body_text: null, vectors: null, memories: null },
        { id: "art_draft", body_text: null, vectors: null, memories: null },
        validated,
      ]);
      expect(await staged.sql.query(counted)).toEqual(words);
      expect(await staged.sql.query(`SELECT id FROM memories WHERE artifact_id IS NULL`)).toEqual([{ id: "mem_ledger" }]);

      const t = await createTestApp({ database: staged.open() });
      try {
        await request(t.app).post("/admin/v1/artifacts/art_draft/validate").set(adminAuth(t.adminToken)).send({ by: "ana@acme.test" }).expect(200);
        expect((await indexed(staged.sql))[1]).toEqual({
          id: "art_draft",
          body_text: "The quarantined zeppelins stayed grounded.",
          vectors: ["body:0:true", "body:1:true", "headline:0:true"],
          memories: [true],
        });
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
