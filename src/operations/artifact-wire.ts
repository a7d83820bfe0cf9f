import type { SearchArtifactsQuery } from "../contracts/artifacts";
import type { ArtifactDetailRecord, ArtifactFilters, ArtifactSummaryRecord } from "../services/artifact.service";
import type { QueueEntry } from "../services/review.service";
import { showContent } from "../services/artifact-content";

// Optional fields with no value are omitted; required arrays are [] when nothing was given.
const present = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);
const asArray = <T>(value: unknown): T[] | undefined => (Array.isArray(value) ? (value as T[]) : undefined);

function summaryFields(record: ArtifactSummaryRecord) {
  return {
    id: record.id,
    summary: record.summary,
    why: record.why,
    recommendation: present(record.recommendation),
    confidence: record.confidence,
    keyFindings: asArray<string>(record.keyFindings),
    dataSources: asArray(record.dataSources) ?? [],
    createdAt: record.createdAt.getTime(),
    validatedAt: record.validatedAt?.getTime(),
  };
}

export const toArtifactSummary = (record: ArtifactSummaryRecord & { score: number }) => ({ ...summaryFields(record), score: record.score });

export function toArtifactDetail(record: ArtifactDetailRecord) {
  return {
    ...summaryFields(record),
    confidenceExplanation: record.confidenceExplanation,
    ...showContent(record.content),
    recommendations: asArray(record.recommendations),
    codeExecuted: asArray(record.codeExecuted),
    sourceSystem: present(record.sourceSystem),
    previousArtifactId: present(record.previousArtifactId),
  };
}

export const toFeedbackItem = (record: ArtifactSummaryRecord) => ({
  artifactId: record.id,
  summary: record.summary,
  status: record.status,
  disputeReason: present(record.disputeReason),
  validatedAt: record.validatedAt?.getTime(),
  validatedBy: present(record.validatedBy),
  confidence: record.confidence,
  createdBy: record.createdBy,
  createdAt: record.createdAt.getTime(),
});

export const toReviewQueueItem = (record: QueueEntry) => ({
  id: record.id,
  status: record.status,
  trigger: record.trigger,
  summary: record.summary,
  why: record.why,
  confidence: record.confidence,
  createdBy: record.createdBy,
  createdAt: record.createdAt.getTime(),
  validatedAt: record.validatedAt?.getTime(),
  validatedBy: present(record.validatedBy),
  disputeReason: present(record.disputeReason),
});

const dateOf = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms));

/** A search's filters as the service takes them: the wire's milliseconds as dates. */
export const toArtifactFilters = (input: Omit<SearchArtifactsQuery, "query" | "limit">): ArtifactFilters => ({
  createdAfter: dateOf(input.createdAfter),
  createdBefore: dateOf(input.createdBefore),
  validatedAfter: dateOf(input.validatedAfter),
  validatedBefore: dateOf(input.validatedBefore),
  dataSource: input.dataSource,
  minConfidence: input.minConfidence,
});
