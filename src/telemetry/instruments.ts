import { metrics, ValueType, type Counter, type Histogram } from "@opentelemetry/api";
import {
  ATTR_EMBEDDING_TABLE,
  ATTR_EMBEDDING_TIER,
  INSTRUMENTATION_SCOPE,
  METRIC_EMBEDDING_BACKLOG,
  METRIC_EMBEDDING_BACKLOG_AGE,
  METRIC_EMBEDDING_FAILED,
  METRIC_EMBEDDING_VECTORS,
  METRIC_GEN_AI_CLIENT_OPERATION_DURATION,
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_RATE_LIMIT_REFUSALS,
  METRIC_VECTOR_INDEX_BUILD_FAILURES,
  METRIC_SEARCH_LEXICAL_FALLBACKS,
  METRIC_QUERY_VECTOR_CACHE_LOOKUPS,
  METRIC_DATABASE_UNAVAILABLE,
  METRIC_DATABASE_NODE_REACHABLE,
  ATTR_UNAVAILABLE_CAUSE,
  ATTR_DATABASE_NODE,
} from "./conventions";

// Metrics of our own, through the API alone: with telemetry off the meter is the API's no-op and
// recording costs a call that does nothing. The API keeps no proxy for meters, so instruments are
// made on first use, which comes after the SDK is registered (src/telemetry/preload.ts runs first).

// The GenAI conventions' advice for operation durations, in seconds.
const GEN_AI_DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92];
// The MCP conventions' advice (the HTTP server's buckets).
const MCP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

export interface Instruments {
  /** Each call of the embeddings provider, by lane, provider, model and error type. */
  embeddingDuration: Histogram;
  /** Vectors the indexer stored, by table. */
  vectorsEmbedded: Counter;
  /** Requests refused by a rate limiter, by limiter. */
  rateLimitRefusals: Counter;
  /** MCP requests, by method, tool and error type. */
  mcpOperationDuration: Histogram;
  /** Builds of a workspace's own vector index that failed, by table and error type (`does_not_fit`, `build_failed`). */
  vectorIndexBuildFailures: Counter;
  /** Searches that answered by words alone (no query vector in time), by search and error type. */
  searchLexicalFallbacks: Counter;
  /** Look-ups of a query's vector among those made recently, by whether it was there (the hit rate). */
  queryVectorCacheLookups: Counter;
  /** Operations answered unavailable (503), by cause. */
  databaseUnavailable: Counter;
}

let made: Instruments | undefined;

export function instruments(): Instruments {
  if (made) return made;
  const meter = metrics.getMeter(INSTRUMENTATION_SCOPE);
  made = {
    embeddingDuration: meter.createHistogram(METRIC_GEN_AI_CLIENT_OPERATION_DURATION, {
      description: "Duration of embeddings provider calls (query and index lanes).",
      unit: "s",
      advice: { explicitBucketBoundaries: GEN_AI_DURATION_BUCKETS },
    }),
    vectorsEmbedded: meter.createCounter(METRIC_EMBEDDING_VECTORS, {
      description: "Vectors the embedding indexer stored.",
      unit: "{vector}",
      valueType: ValueType.INT,
    }),
    rateLimitRefusals: meter.createCounter(METRIC_RATE_LIMIT_REFUSALS, {
      description: "Requests refused with 429 by a rate limiter.",
      unit: "{request}",
      valueType: ValueType.INT,
    }),
    mcpOperationDuration: meter.createHistogram(METRIC_MCP_SERVER_OPERATION_DURATION, {
      description: "Duration of MCP requests as the server handles them.",
      unit: "s",
      advice: { explicitBucketBoundaries: MCP_DURATION_BUCKETS },
    }),
    vectorIndexBuildFailures: meter.createCounter(METRIC_VECTOR_INDEX_BUILD_FAILURES, {
      description: "Builds of a workspace's own vector index that failed; the workspace is searched exactly meanwhile.",
      unit: "{build}",
      valueType: ValueType.INT,
    }),
    searchLexicalFallbacks: meter.createCounter(METRIC_SEARCH_LEXICAL_FALLBACKS, {
      description: "Searches answered by words alone because the query's vector did not come within its budget.",
      unit: "{search}",
      valueType: ValueType.INT,
    }),
    queryVectorCacheLookups: meter.createCounter(METRIC_QUERY_VECTOR_CACHE_LOOKUPS, {
      description: "Look-ups of a search query's vector among those the process made recently; wsi.cache.hit says whether it was there.",
      unit: "{lookup}",
      valueType: ValueType.INT,
    }),
    databaseUnavailable: meter.createCounter(METRIC_DATABASE_UNAVAILABLE, {
      description: "Operations answered 503 because the database, or the Citus node holding the workspace, could not be reached; wsi.database.unavailable.cause says why.",
      unit: "{operation}",
      valueType: ValueType.INT,
    }),
  };
  return made;
}

/** Counts an operation answered unavailable: `node_unreachable` (refused before reaching a node known to be away), `statement_timeout`, `connection`, `shard_moved` (a Citus shard split or moved under the statement, once retried). */
export function countUnavailable(cause: "node_unreachable" | "statement_timeout" | "connection" | "shard_moved"): void {
  instruments().databaseUnavailable.add(1, { [ATTR_UNAVAILABLE_CAUSE]: cause });
}

/** Each Citus worker's reachability as this process last found it (1 or 0), read when metrics are collected. */
export function observeNodeReachability(read: () => Array<{ node: string; reachable: boolean }>): void {
  const gauge = metrics.getMeter(INSTRUMENTATION_SCOPE).createObservableGauge(METRIC_DATABASE_NODE_REACHABLE, {
    description: "Whether each Citus worker answered the coordinator when last checked (1) or not (0).",
    unit: "1",
    valueType: ValueType.INT,
  });
  gauge.addCallback((result) => {
    for (const { node, reachable } of read()) result.observe(reachable ? 1 : 0, { [ATTR_DATABASE_NODE]: node });
  });
}

/** Seconds since `started` (a performance.now() reading). */
export const secondsSince = (started: number) => (performance.now() - started) / 1000;

/** One table and tier of the embedding backlog: rows still to embed, the oldest one's age, rows set aside. */
export interface BacklogFigure {
  table: string;
  tier: number;
  pending: number;
  oldestPendingSeconds: number;
  failed: number;
}

/**
 * How long a backlog reading is reused. Collections come once a minute over OTLP and whenever
 * Prometheus scrapes; the reading is one statement per table that scans its pending rows, so a
 * burst of scrapes must not repeat it.
 */
export const BACKLOG_READING_TTL_MS = 30_000;

/**
 * The embedding backlog as gauges, read by `read` at most once per BACKLOG_READING_TTL_MS and
 * only when metrics are collected, never on a request's path. A failed reading reports nothing
 * (the gauges go absent, which an alert on their absence catches).
 */
export function observeEmbeddingBacklog(read: () => Promise<BacklogFigure[]>, ttlMs = BACKLOG_READING_TTL_MS): void {
  const meter = metrics.getMeter(INSTRUMENTATION_SCOPE);
  const pending = meter.createObservableGauge(METRIC_EMBEDDING_BACKLOG, {
    description: "Rows whose vector is still to make, by table and priority tier.",
    unit: "{row}",
    valueType: ValueType.INT,
  });
  const age = meter.createObservableGauge(METRIC_EMBEDDING_BACKLOG_AGE, {
    description: "Age of the oldest row still to embed, by table and tier (0 when none).",
    unit: "s",
  });
  const failed = meter.createObservableGauge(METRIC_EMBEDDING_FAILED, {
    description: "Rows set aside after the provider refused them the maximum number of times (npm run admin -- reindex retries them).",
    unit: "{row}",
    valueType: ValueType.INT,
  });
  let reading: { at: number; figures: Promise<BacklogFigure[]> } | undefined;
  const current = () => {
    if (!reading || Date.now() - reading.at > ttlMs) {
      const figures = read();
      reading = { at: Date.now(), figures };
      // A failure is not kept: the next collection reads again.
      figures.catch(() => {
        if (reading?.figures === figures) reading = undefined;
      });
    }
    return reading.figures;
  };
  meter.addBatchObservableCallback(
    async (observer) => {
      let figures: BacklogFigure[];
      try {
        figures = await current();
      } catch {
        return;
      }
      const failedByTable = new Map<string, number>();
      for (const figure of figures) {
        const attributes = { [ATTR_EMBEDDING_TABLE]: figure.table, [ATTR_EMBEDDING_TIER]: figure.tier };
        observer.observe(pending, figure.pending, attributes);
        observer.observe(age, figure.oldestPendingSeconds, attributes);
        failedByTable.set(figure.table, (failedByTable.get(figure.table) ?? 0) + figure.failed);
      }
      for (const [table, rows] of failedByTable) observer.observe(failed, rows, { [ATTR_EMBEDDING_TABLE]: table });
    },
    [pending, age, failed],
  );
}
