import type { ApiKeyPrincipal } from "../auth/principal";
import type { CreateArtifactRequest } from "../contracts/artifacts";
import type { EmbeddingsProvider } from "../embeddings/embeddings-provider";
import type { ArtifactStatus } from "../generated/prisma/client";
import { DomainError, notFound } from "../domain/errors";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { ArtifactRecord, ArtifactRepository, ArtifactSummaryRecord } from "../repositories/artifact.repository";
import type { ArtifactDetailRecord, ArtifactDetailRepository } from "../repositories/artifact-detail.repository";
import type { ArtifactPushRepository } from "../repositories/artifact-push.repository";
import type { ArtifactSearchRepository } from "../repositories/artifact-search.repository";
import type { IdempotencyRepository } from "../repositories/idempotency.repository";
import type { ArtifactFilters } from "../search/artifact-filters";
import { rankFound } from "../search/hybrid-candidates";
import { searchQuery } from "../search/query-embedding";
import { searchModeOf, type Searched } from "../search/search-mode";
import type { WorkspaceVocabulary } from "../search/workspace-vocabulary";
import type { QueryVectorCache } from "../search/query-vector-cache";
import { decodeCursor, encodeCursor } from "./feedback-cursor";
import { requestFingerprint } from "./request-fingerprint";

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface PushResult {
  artifactId: string;
  /** True when an earlier identical request under the same Idempotency-Key was answered instead. */
  replayed: boolean;
}

export interface ArtifactServiceDeps {
  artifacts: Pick<ArtifactRepository, "feedbackPage">;
  pushes: ArtifactPushRepository;
  details: ArtifactDetailRepository;
  search: ArtifactSearchRepository;
  idempotency: Pick<IdempotencyRepository, "find" | "deleteExpired">;
  embeddings: EmbeddingsProvider;
  clock: Clock;
  logger: Logger;
  vocabulary: WorkspaceVocabulary;
  /** Query vectors made recently (query-vector-cache.ts); none kept when absent. */
  queryVectors?: QueryVectorCache;
}

export function createArtifactService(deps: ArtifactServiceDeps) {
  const { artifacts, clock } = deps;

  const draftFrom = (principal: ApiKeyPrincipal, request: CreateArtifactRequest) => {
    // `trigger` is accepted and ignored: a push is always recorded as external.
    const { trigger: _ignored, ...fields } = request;
    return {
      ...fields,
      trigger: "external" as const,
      status: "draft" as const,
      createdByKeyId: principal.keyId,
      createdBy: principal.keyName,
      createdAt: clock.now(),
    };
  };

  async function replayOrConflict(principal: ApiKeyPrincipal, idempotencyKey: string, fingerprint: string): Promise<PushResult | undefined> {
    const since = new Date(clock.now().getTime() - IDEMPOTENCY_WINDOW_MS);
    const earlier = await deps.idempotency.find(principal.workspaceId, principal.keyId, idempotencyKey, since);
    if (!earlier) return undefined;
    if (earlier.requestHash !== fingerprint) {
      throw new DomainError(
        "unprocessable",
        "Idempotency-Key was already used with a different request body; use a new key for a new artifact",
      );
    }
    return { artifactId: (earlier.responseBody as { artifactId: string }).artifactId, replayed: true };
  }

  /** Validated artifacts of the workspace ranked by the hybrid score (vector similarity fused with text rank). */
  async function searchWorkspace(
    workspaceId: string,
    text: string,
    limit: number,
    filters?: ArtifactFilters,
  ): Promise<Searched<ArtifactSummaryRecord & { score: number }>> {
    const query = await searchQuery(deps, workspaceId, text, "artifacts");
    const candidates = await deps.search.candidates(workspaceId, query, filters);
    // The candidates carry the fields of the answer: no statement reads them again.
    const hits = rankFound(candidates, query, limit);
    return { hits, searchMode: await searchModeOf(query) };
  }

  return {
    /** Stores a draft and answers as soon as it is stored; nothing is embedded until a review validates it. */
    async push(principal: ApiKeyPrincipal, request: CreateArtifactRequest, idempotencyKey?: string): Promise<PushResult> {
      const draft = draftFrom(principal, request);
      if (idempotencyKey === undefined) {
        const artifactId = await deps.pushes.insert(principal.workspaceId, draft);
        return { artifactId, replayed: false };
      }
      const fingerprint = requestFingerprint(request);
      const replay = await replayOrConflict(principal, idempotencyKey, fingerprint);
      if (replay) return replay;
      try {
        const now = clock.now();
        // An expired record frees its key; deleting it apart from the write loses nothing, whatever the write does.
        await deps.idempotency.deleteExpired(principal.workspaceId, principal.keyId, idempotencyKey, new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS));
        const record = { apiKeyId: principal.keyId, idempotencyKey, requestHash: fingerprint, createdAt: now };
        const artifactId = await deps.pushes.insert(principal.workspaceId, draft, record);
        return { artifactId, replayed: false };
      } catch (error) {
        // A concurrent request with the same key won the race: answer as if we had come second.
        if (error instanceof DomainError && error.kind === "conflict") {
          const raced = await replayOrConflict(principal, idempotencyKey, fingerprint);
          if (raced) return raced;
        }
        throw error;
      }
    },

    /** Narrowed by `filters` (artifact-filters.ts) before ranking, when given. */
    search: (principal: ApiKeyPrincipal, text: string, limit: number, filters?: ArtifactFilters) => searchWorkspace(principal.workspaceId, text, limit, filters),

    /** The same hybrid search by workspace id, for callers that are not an API key (the review console). */
    searchWorkspace,

    /** A validated artifact of the key's workspace; the same 404 for unknown, draft, disputed and foreign ids. */
    async getValidated(principal: ApiKeyPrincipal, artifactId: string): Promise<ArtifactDetailRecord> {
      const record = await deps.details.findValidated(principal.workspaceId, artifactId);
      if (!record) throw notFound(`Artifact ${artifactId} not found`);
      return record;
    },

    async feedback(
      principal: ApiKeyPrincipal,
      query: { cursor?: string; limit: number; status?: ArtifactStatus; audience: "mine" | "workspace" },
    ): Promise<{ items: ArtifactSummaryRecord[]; nextCursor: string | null }> {
      const scope = { keyId: principal.keyId, audience: query.audience, status: query.status };
      const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, scope);
      const page = await artifacts.feedbackPage(principal.workspaceId, {
        pushedByKeyId: query.audience === "mine" ? principal.keyId : undefined,
        status: query.status,
        after,
        take: query.limit + 1,
      });
      const items = page.slice(0, query.limit);
      const last = items[items.length - 1];
      return { items, nextCursor: page.length > query.limit && last ? encodeCursor(scope, last) : null };
    },
  };
}

export type ArtifactService = ReturnType<typeof createArtifactService>;

/** The records this service answers with, for adapters, which never import a repository; and what a search may be narrowed to. */
export type { ArtifactDetailRecord, ArtifactFilters, ArtifactRecord, ArtifactSummaryRecord };
