/**
 * Names of the spans, metrics and attributes this service emits (docs/operations.md). The GenAI
 * and MCP names are OpenTelemetry's (semantic conventions 1.45, now kept in the GenAI conventions
 * repository); they are incubating, so they are copied here, as the conventions package advises,
 * rather than imported from its unstable entry point. Names of our own start with `wsi.`.
 */

// OpenTelemetry semantic conventions (stable).
export const ATTR_ERROR_TYPE = "error.type";
export const ATTR_DB_COLLECTION_NAME = "db.collection.name";
export const ATTR_DB_SYSTEM_NAME = "db.system.name";
export const ATTR_DB_QUERY_TEXT = "db.query.text";

// GenAI: an embeddings call is a client operation of a model provider.
export const ATTR_GEN_AI_OPERATION_NAME = "gen_ai.operation.name";
export const ATTR_GEN_AI_PROVIDER_NAME = "gen_ai.provider.name";
export const ATTR_GEN_AI_REQUEST_MODEL = "gen_ai.request.model";
export const ATTR_GEN_AI_EMBEDDINGS_DIMENSION_COUNT = "gen_ai.embeddings.dimension.count";
export const ATTR_GEN_AI_TOOL_NAME = "gen_ai.tool.name";
export const GEN_AI_OPERATION_EMBEDDINGS = "embeddings";
export const GEN_AI_OPERATION_EXECUTE_TOOL = "execute_tool";
export const METRIC_GEN_AI_CLIENT_OPERATION_DURATION = "gen_ai.client.operation.duration";

// MCP: the server side of a request.
export const ATTR_MCP_METHOD_NAME = "mcp.method.name";
export const ATTR_MCP_PROTOCOL_VERSION = "mcp.protocol.version";
export const METRIC_MCP_SERVER_OPERATION_DURATION = "mcp.server.operation.duration";

// Process.
export const METRIC_PROCESS_MEMORY_USAGE = "process.memory.usage";

// Ours.
/** Which lane of the embeddings provider a call took: `query` (a request waits) or `index` (background). */
export const ATTR_EMBEDDING_LANE = "wsi.embedding.lane";
/** The table whose vectors a batch or a backlog figure is about (artifacts, memories, queryPatterns, errorLearnings). */
export const ATTR_EMBEDDING_TABLE = "wsi.embedding.table";
/** A backlog's priority tier: 0 makes an item findable by meaning, 1 refines an item already found. */
export const ATTR_EMBEDDING_TIER = "wsi.embedding.tier";
export const ATTR_BATCH_ROWS = "wsi.embedding.batch.rows";
/** Which half of a hybrid search a statement runs: `text` or `vector`. */
export const ATTR_SEARCH_HALF = "wsi.search.half";
export const ATTR_SEARCH_CANDIDATES = "wsi.search.candidates";
/** The search that answered by words alone: artifacts, memories or query_intelligence. */
export const ATTR_SEARCH_OPERATION = "wsi.search.operation";
/** Whether a cache held what was looked up. */
export const ATTR_CACHE_HIT = "wsi.cache.hit";
/** The limiter that refused a request: per-key, per-address, sign-in, auth-failures, admin-token-failures, client-registrations. */
export const ATTR_RATE_LIMITER = "wsi.rate_limit.limiter";
/** Why the database could not be reached: `node_unreachable`, `statement_timeout`, `connection`, `shard_moved`. */
export const ATTR_UNAVAILABLE_CAUSE = "wsi.database.unavailable.cause";
/** A Citus worker, host:port. */
export const ATTR_DATABASE_NODE = "wsi.database.node";

export const METRIC_EMBEDDING_VECTORS = "wsi.embedding.vectors";
export const METRIC_EMBEDDING_BACKLOG = "wsi.embedding.backlog";
export const METRIC_EMBEDDING_BACKLOG_AGE = "wsi.embedding.backlog.age";
export const METRIC_EMBEDDING_FAILED = "wsi.embedding.failed";
export const METRIC_RATE_LIMIT_REFUSALS = "wsi.rate_limit.refusals";
export const METRIC_VECTOR_INDEX_BUILD_FAILURES = "wsi.vector_index.build_failures";
export const METRIC_SEARCH_LEXICAL_FALLBACKS = "wsi.search.lexical_fallbacks";
export const METRIC_QUERY_VECTOR_CACHE_LOOKUPS = "wsi.search.query_vector_cache.lookups";
export const METRIC_DATABASE_UNAVAILABLE = "wsi.database.unavailable";
export const METRIC_DATABASE_NODE_REACHABLE = "wsi.database.node.reachable";

export const SPAN_EMBEDDING_BATCH = "embedding batch";
export const SPAN_SEARCH_TEXT = "hybrid search text";
export const SPAN_SEARCH_VECTOR = "hybrid search vector";
/** A statement of the embedded engine's driver (the pg instrumentation names the pool's `pg.query:…`; the sampler treats both alike). */
export const SPAN_EMBEDDED_STATEMENT = "pglite.query";

/** The instrumentation scope of every span and metric of our own. */
export const INSTRUMENTATION_SCOPE = "workspace-intelligence-api";
