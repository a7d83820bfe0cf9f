/**
 * How much of a pushed body the console renders. Bodies are stored as pushed and may be any shape
 * within the 1 MiB request limit; without these caps a 100,000-row table made a 3.5 MB page that
 * took seconds to load. What is left out is counted in a note on the page, and the whole content
 * stays one click away as JSON (`/console/artifacts/{id}/content.json`).
 */

/** Rows of one DataTable. */
export const MAX_TABLE_ROWS = 200;
/** Columns of one DataTable: a row of 100,000 cells is as heavy as 100,000 rows. */
export const MAX_TABLE_COLUMNS = 50;
/** Characters of one table cell. */
export const MAX_CELL_CHARS = 500;
/** Metrics of one MetricRow (the schema allows 8; the cap keeps rendering bounded if that changes). */
export const MAX_METRICS_PER_ROW = 8;
/** Elements of one body, Sections and evidence included, in document order. */
export const MAX_BODY_ELEMENTS = 500;
/** Characters of one text block: a Markdown block or body, a callout, a SQL statement. */
export const MAX_TEXT_CHARS = 20_000;
/**
 * Characters of the content's JSON text served by the JSON link; past it, the text is cut. Near the
 * 1 MiB push limit, so that the link shows nearly every pushed body whole.
 */
export const CONTENT_JSON_LIMIT = 1_000_000;
