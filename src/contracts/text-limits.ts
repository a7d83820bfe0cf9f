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

/**
 * Upper bounds, in characters, of the text a caller sends to be searched with or looked up by,
 * and of the names the admin API gives. Each is declared once, in the schema of its operation, so
 * REST, MCP and the review console refuse the same sizes with the same sentence, and the OpenAPI
 * document and the MCP tool list advertise them (`maxLength`).
 */
export const INPUT_LIMITS = {
  /**
   * A search query, a recall query, a query-intelligence question: generous for natural language
   * (the judged sets' longest question is under 100 characters). Searches read its first words
   * and embed its start (src/search/query-text.ts), whatever the caller's length.
   */
  searchText: 1_000,
  /**
   * A skill or data source looked up by name. Wider than the naming rules (`names.ts`), so that
   * names stored before those rules stay readable.
   */
  lookupName: 500,
  /** A file path inside a skill: the longest path a file system gives (Linux's PATH_MAX). */
  filePath: 4_096,
  /** An opaque paging cursor (the ones issued are about 200 characters). */
  cursor: 500,
  /** A workspace's, organization's or API key's name. */
  name: 200,
  /** Who reviewed an artifact: the console gives the reviewer's email, which may be this long. */
  reviewedBy: 254,
  /** A workspace's standing context, injected into every agent prompt. */
  workspaceContext: 20_000,
} as const;
