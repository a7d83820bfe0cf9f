// The bulk statements of the seed, one batch of rows each, all vectors made inside PostgreSQL:
// the template's vector plus two of the row's words' vectors (both tables per session, see
// sessionSetup) plus a little noise from random(), normalised.

/** How far a row's words pull its vector from its template's, and how much noise is added. */
export const WORD_WEIGHT = 0.35;
const NOISE_SPREAD = 0.03;

/** Run once per seeding connection before any batch; the vectors come as `[…]` literals. */
export const sessionSetup = [
  "SET synchronous_commit = off",
  "CREATE TEMP TABLE seed_templates (id int PRIMARY KEY, v vector(512) NOT NULL)",
  "CREATE TEMP TABLE seed_words (id int PRIMARY KEY, v vector(512) NOT NULL)",
  // Not inlined (it holds a sub-select) and volatile, so every row draws its own noise.
  `CREATE FUNCTION pg_temp.seed_vector(template vector, a vector, b vector) RETURNS vector
   LANGUAGE sql VOLATILE AS $$
     SELECT l2_normalize(template + a + b + (SELECT array_agg((random() - 0.5) * ${NOISE_SPREAD}) FROM generate_series(1, 512))::vector(512))
   $$`,
];

export const loadVectors = (table: "seed_templates" | "seed_words") =>
  `INSERT INTO ${table} (id, v) SELECT * FROM unnest($1::int[], $2::vector[])`;

/** $1 workspace, $2 model, then one array per column of `input`. */
export const INSERT_ARTIFACTS = `
  WITH input AS (
    SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::int[], $11::int[], $12::int[], $13::int[])
      AS t(id, summary, why, key_findings, recommendation, age, template, h1, h2, b1, b2)
  ), inserted AS (
    INSERT INTO artifacts (id, workspace_id, status, trigger, summary, why, confidence, confidence_explanation, recommendation,
                           key_findings, data_sources, created_by, validated_at, validated_by, created_at, updated_at)
    SELECT id, $1, 'validated', (CASE WHEN age % 4 = 0 THEN 'chat' ELSE 'external' END)::artifact_trigger, summary, why,
           0.55 + (age % 40) / 100.0, 'Twelve months of warehouse data', recommendation, key_findings::jsonb,
           '[{"type":"database","name":"warehouse"}]'::jsonb, 'analyst-agent',
           now() - age * interval '1 minute' + interval '2 hours', 'reviewer@example.com', now() - age * interval '1 minute', now()
    FROM input RETURNING id
  )
  INSERT INTO artifact_embeddings (id, artifact_id, facet, part, workspace_id, searchable, model, embedding)
  SELECT i.id || ':' || f.facet, i.id, f.facet::artifact_facet, 0, $1, true, $2, pg_temp.seed_vector(t.v, a.v, b.v)
  FROM input i
  CROSS JOIN (VALUES ('headline'), ('body')) AS f(facet)
  JOIN seed_templates t ON t.id = i.template
  JOIN seed_words a ON a.id = CASE f.facet WHEN 'headline' THEN i.h1 ELSE i.b1 END
  JOIN seed_words b ON b.id = CASE f.facet WHEN 'headline' THEN i.h2 ELSE i.b2 END`;

export const INSERT_MEMORIES = `
  INSERT INTO memories (id, workspace_id, type, statement, going_forward, active, embedding_model, embedding, created_at)
  SELECT i.id, $1, i.type::memory_type, i.statement, i.going_forward, true, $2, pg_temp.seed_vector(t.v, a.v, b.v), now() - i.age * interval '1 minute'
  FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::int[], $9::int[], $10::int[])
    AS i(id, type, statement, going_forward, age, template, w1, w2)
  JOIN seed_templates t ON t.id = i.template JOIN seed_words a ON a.id = i.w1 JOIN seed_words b ON b.id = i.w2`;

/** $1 workspace, $2 model, $3 data source. */
export const INSERT_PATTERNS = `
  INSERT INTO query_patterns (id, workspace_id, data_source_id, question, sql, result_summary, success_count, last_used_at,
                              embedding_model, embedding, created_at)
  SELECT i.id, $1, $3, i.question, i.sql, i.result_summary, i.success_count, now() - (i.age / 3) * interval '1 minute',
         $2, pg_temp.seed_vector(t.v, a.v, b.v), now() - i.age * interval '1 minute'
  FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::int[], $11::int[], $12::int[])
    AS i(id, question, sql, result_summary, success_count, age, template, w1, w2)
  JOIN seed_templates t ON t.id = i.template JOIN seed_words a ON a.id = i.w1 JOIN seed_words b ON b.id = i.w2`;

/** $1 workspace, $2 model, $3 data source. */
export const INSERT_LEARNINGS = `
  INSERT INTO error_learnings (id, workspace_id, data_source_id, failed_sql, error_message, learning, embedding_model, embedding, created_at)
  SELECT i.id, $1, $3, i.failed_sql, i.error_message, i.learning, $2, pg_temp.seed_vector(t.v, a.v, b.v), now() - i.age * interval '1 minute'
  FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::int[], $10::int[], $11::int[])
    AS i(id, failed_sql, error_message, learning, age, template, w1, w2)
  JOIN seed_templates t ON t.id = i.template JOIN seed_words a ON a.id = i.w1 JOIN seed_words b ON b.id = i.w2`;

/** A realistic warehouse source: two tables, with the annotations a team writes. */
export const WAREHOUSE_SCHEMA = [
  { tableName: "fct_revenue", columns: [{ columnName: "event_date", dataType: "date" }, { columnName: "account_id", dataType: "text" }, { columnName: "region", dataType: "text" }, { columnName: "mrr_amount", dataType: "numeric" }] },
  { tableName: "fct_churn", columns: [{ columnName: "event_date", dataType: "date" }, { columnName: "account_id", dataType: "text" }, { columnName: "segment", dataType: "text" }, { columnName: "churned_flag", dataType: "boolean" }] },
];
export const WAREHOUSE_ANNOTATIONS = [
  { tableName: "fct_revenue", description: "Daily recurring revenue per account", useCases: ["revenue by region", "monthly recurring revenue trends"], gotchas: ["Amounts are in EUR"] },
  { tableName: "fct_churn", description: "One row per account and day with its churn state", useCases: ["churn by segment", "retention cohorts"], gotchas: ["Trials are excluded"] },
];

/** Secondary indexes of the seeded tables (not those behind a constraint), to drop before a bulk load and build after. */
export const SEEDED_INDEXES = `
  SELECT c.relname AS name, pg_get_indexdef(x.indexrelid) AS definition
  FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
  WHERE x.indrelid = ANY(ARRAY['artifacts', 'artifact_embeddings', 'memories', 'query_patterns', 'error_learnings']::regclass[])
    AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)
  ORDER BY c.relname`;
