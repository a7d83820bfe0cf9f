/**
 * Upper bounds, in characters, of the fields that feed a full-text search column. PostgreSQL
 * refuses a `tsvector` over 1 MiB, and a row's document holds every field below at once: with
 * these bounds even a document made only of distinct short words (the worst case, about 4 bytes of
 * tsvector per character) stays under that limit. Longer text belongs in `content`, which is not indexed.
 */
export const TEXT_LIMITS = {
  summary: 2_000,
  why: 20_000,
  recommendation: 20_000,
  keyFinding: 2_000,
  keyFindings: 50,
  dataSourceField: 500,
  dataSources: 50,
  memoryText: 20_000,
  question: 2_000,
  sql: 50_000,
  resultSummary: 20_000,
  errorMessage: 20_000,
  learning: 20_000,
} as const;
