import { INPUT_LIMITS } from "../contracts/text-limits";
import { cutAt } from "../lib/cut-text";

/**
 * How much of a query a search works on. The contract bounds what a caller may send
 * (INPUT_LIMITS.searchText), but the text statements' work grows with the query's words, not its
 * bytes: each word is a lexeme to look up, to read postings of, to rank every hit against and to
 * match in every candidate. On the embedded database every statement runs on the one thread all
 * workspaces share, so a query's cost is a wait for everyone else (docs/performance.md, "Other
 * workspaces during the costliest search").
 */
export const QUERY_WORK = {
  /**
   * Words of a query searched by their text, the first ones: 32 is more than twice the longest
   * question of the judged sets (14 words), and keeps the costliest query a few times the cost of
   * a typical one. The whole query still reaches the embedding, which reads its meaning.
   */
  words: 32,
  /** Characters the full-text statements read at most, for callers the contract does not bound (the console's similar artifacts). */
  chars: INPUT_LIMITS.searchText,
} as const;

// A word as the text statements count them: a run of letters or digits. `fct_orders`, `DAU/MAU`
// and `TW-1120` are two words each (the statements search each part and the whole), so an
// identifier of many parts cannot pass for one word.
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The query up to the end of its QUERY_WORK.words-th word (all of it when it has no more), within
 * QUERY_WORK.chars: the text the full-text statements read.
 */
export function searchedWords(text: string): string {
  const bounded = cutAt(text, QUERY_WORK.chars);
  let count = 0;
  let end = 0;
  for (const match of bounded.matchAll(WORD)) {
    if (++count > QUERY_WORK.words) return bounded.slice(0, end);
    end = match.index + match[0].length;
  }
  return bounded;
}
