import type { Db } from "../db/database";
import { Prisma } from "../generated/prisma/client";
import { queryLexemes } from "../search/text-query";
import type { DefinitionTexts, VocabularySource } from "../search/workspace-vocabulary";

/** Texts a workspace's vocabulary is read from, at most this many. */
const MAX_TEXTS = 2_000;

export function createVocabularyRepository(db: Db): VocabularySource {
  return {
    /**
     * What the workspace says its words mean: its active definition memories, and the
     * descriptions and use cases of its data sources' table annotations.
     */
    async definitionTexts(workspaceId: string): Promise<DefinitionTexts> {
      const rows = await db.$queryRaw<Array<{ text: string; source: number }>>`
        SELECT statement AS text, source FROM (
          SELECT m.statement, 0 AS source, m.created_at FROM memories m
          WHERE m.workspace_id = ${workspaceId} AND m.active AND m.type::text = 'definition'
          UNION ALL
          SELECT v.value #>> '{}', 1, d.created_at
          FROM data_sources d
          CROSS JOIN LATERAL jsonb_array_elements(
            CASE WHEN jsonb_typeof(d.table_annotations::jsonb) = 'array' THEN d.table_annotations::jsonb ELSE '[]'::jsonb END) AS a(annotation)
          CROSS JOIN LATERAL (
            SELECT a.annotation -> 'description'
            UNION ALL
            SELECT jsonb_array_elements(CASE WHEN jsonb_typeof(a.annotation -> 'useCases') = 'array' THEN a.annotation -> 'useCases' ELSE '[]'::jsonb END)
          ) AS v(value)
          WHERE d.workspace_id = ${workspaceId} AND jsonb_typeof(v.value) = 'string'
        ) AS texts(statement, source, created_at)
        ORDER BY source, created_at
        LIMIT ${MAX_TEXTS}`;
      return {
        definitions: rows.filter((row) => row.source === 0).map((row) => row.text),
        annotations: rows.filter((row) => row.source === 1).map((row) => row.text),
      };
    },

    /** Each text's search lexemes, spelled as queries and documents spell them. */
    async lexemesOf(texts: string[]): Promise<string[][]> {
      if (texts.length === 0) return [];
      const rows = await db.$queryRaw<Array<{ lexemes: string[] }>>`
        SELECT ${queryLexemes(Prisma.sql`t.text`)} AS lexemes
        FROM unnest(${texts}::text[]) WITH ORDINALITY AS t(text, position) ORDER BY t.position`;
      return rows.map((row) => row.lexemes);
    },
  };
}
