/**
 * The lexical baseline: Okapi BM25 (k1 = 1.2, b = 0.75, the usual idf with +1 inside the log so it
 * stays positive) over the same text fields the service searches. Tokens: lower-cased runs of
 * letters and digits, English stop words dropped, a trailing plural "s" stripped — no stemmer, no
 * field weights, nothing tuned on the judged set.
 */
const K1 = 1.2;
const B = 0.75;
const STOP_WORDS = new Set(
  "a an and are as at be by do does did for from has have how i in is it its my of on or our that the their them they this to was we were what when where which who why will with would you your".split(" "),
);

export function tokenize(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .filter((token) => !STOP_WORDS.has(token))
    .map((token) => (token.length > 3 && token.endsWith("s") && !token.endsWith("ss") ? token.slice(0, -1) : token));
}

export class Bm25Index {
  private readonly docs: Array<{ key: string; tf: Map<string, number>; length: number }>;
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(documents: Array<{ key: string; text: string }>) {
    this.docs = documents.map(({ key, text }) => {
      const tokens = tokenize(text);
      const tf = new Map<string, number>();
      for (const token of tokens) tf.set(token, (tf.get(token) ?? 0) + 1);
      for (const token of tf.keys()) this.df.set(token, (this.df.get(token) ?? 0) + 1);
      return { key, tf, length: tokens.length };
    });
    this.avgLength = this.docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, this.docs.length);
  }

  /** Keys of the documents that share a token with the query, best first. */
  search(query: string, limit = 10): string[] {
    const terms = [...new Set(tokenize(query))];
    const n = this.docs.length;
    return this.docs
      .map((doc) => {
        let score = 0;
        for (const term of terms) {
          const tf = doc.tf.get(term) ?? 0;
          if (tf === 0) continue;
          const df = this.df.get(term) ?? 0;
          const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
          score += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * doc.length) / this.avgLength));
        }
        return { key: doc.key, score };
      })
      .filter((doc) => doc.score > 0)
      .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : 1))
      .slice(0, limit)
      .map((doc) => doc.key);
  }
}
