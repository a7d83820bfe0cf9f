import { LRUCache } from "lru-cache";
import { ATTR_CACHE_HIT } from "../telemetry/conventions";
import { instruments } from "../telemetry/instruments";

/** Query vectors a process keeps by default (QUERY_EMBEDDING_CACHE_ENTRIES): about 4 KB each. */
export const DEFAULT_QUERY_VECTOR_CACHE_ENTRIES = 1_000;

/**
 * The vectors of queries asked recently, by model and the exact text the model read: agents ask
 * the same questions again, and a vector made once is the same vector (so a search answers the
 * same with and without the cache). A query being embedded is shared by the searches that ask it
 * meanwhile; a failed one is not kept. Each look-up is counted, hit or not (the hit rate).
 */
export function createQueryVectorCache(entries: number = DEFAULT_QUERY_VECTOR_CACHE_ENTRIES) {
  const cache = entries > 0 ? new LRUCache<string, Promise<number[]>>({ max: entries }) : undefined;
  return {
    vectorOf(model: string, text: string, make: () => Promise<number[]>): Promise<number[]> {
      if (!cache) return make();
      const key = `${model}\u0000${text}`;
      const known = cache.get(key);
      instruments().queryVectorCacheLookups.add(1, { [ATTR_CACHE_HIT]: known !== undefined });
      if (known) return known;
      const made = make();
      cache.set(key, made);
      made.catch(() => {
        if (cache.get(key) === made) cache.delete(key);
      });
      return made;
    },
  };
}

export type QueryVectorCache = ReturnType<typeof createQueryVectorCache>;
