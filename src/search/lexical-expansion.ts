import { openWordNet, PARTS_OF_SPEECH, type PartOfSpeech, type WordNet } from "./wordnet";

/**
 * Lexical bridges from WordNet: for each word of a query, a few words WordNet links to it, so that
 * an item saying "daily" counts, below the word itself, for a query saying "day". The local model
 * does not link such pairs reliably, and a hand-made thesaurus would be tuned to whatever set it
 * was written against; WordNet is a general resource written for no workspace. docs/search.md
 * ("Lexical expansion") has the judged-set figures that set the bounds and the weight.
 *
 * What counts as related, from the first senses of each part of speech the word has (the most
 * frequent; later senses are mostly rare meanings: "spend" as "pass" time comes first, but
 * "day" as "daylight" third):
 * - synonyms: the other words of the same synset ("ad" → "advertisement");
 * - derivationally related forms (`+` pointers from this word: "day" → "daily");
 * - pertainyms (`\`: "daily" the adverb → "daily" the adjective → …).
 * Only single words (WordNet's "solar_day" is no query word), at most EXPANSION.perWord a word.
 */

export const EXPANSION = {
  /** Senses read per part of speech, most frequent first. */
  senses: 1,
  /** Related words kept per query word, at most. */
  perWord: 4,
  /** Query words expanded, at most (the first ones). */
  words: 12,
  /** Off: queries are searched by their own words and the vocabulary only. */
  enabled: true,
};

/** A query word and the words WordNet relates to it, as written (the search statement stems both). */
export interface WordExpansion {
  word: string;
  related: string[];
  /** For each related word, how: the same word in another part of speech (a derivation or pertainym), or a synonym. */
  kinds: RelationKind[];
}

export type RelationKind = "derived" | "synonym";

/**
 * Function words the search's own parser drops (PostgreSQL's English stop list, the part WordNet
 * also holds as rare nouns or verbs: "do", "will", "may"…): expanding them would spend the bound
 * on words that never reach the search.
 */
const STOP_WORDS = new Set(
  ("a about above after again against all am an and any are as at be because been before being below between both but by can did do does doing " +
    "down during each few for from further had has have having he her here hers him his how i if in into is it its just me more most my no nor not " +
    "now of off on once only or other our out over own same she should so some such than that the their them then there these they this those " +
    "through to too under until up very was we were what when where which while who whom why will with would you your much many per").split(" "),
);

/** WordNet's detachment rules (morphy): the base forms an inflected word may have, per part of speech. */
const DETACHMENTS: Record<PartOfSpeech, Array<[string, string]>> = {
  n: [["s", ""], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"], ["ies", "y"]],
  v: [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""]],
  a: [["er", ""], ["est", ""], ["er", "e"], ["est", "e"]],
  r: [],
};

/** Query words looked up whose expansions are kept; a query's words are mostly the same few thousand. */
const MAX_CACHED_WORDS = 5_000;

export interface LexicalExpansion {
  /** The words WordNet relates to one word (lower-cased), bounded; empty when WordNet lacks it. */
  relatedWords(word: string): string[];
  /** The same, each with how it is related. */
  relations(word: string): Array<{ word: string; kind: RelationKind }>;
  /** The query's words that have related words, each with them, in query order; bounded. */
  expandQuery(text: string): WordExpansion[];
}

export function createLexicalExpansion(open: () => WordNet = () => openWordNet()): LexicalExpansion {
  let wordnet: WordNet | undefined;
  const cache = new Map<string, Array<{ word: string; kind: RelationKind }>>();

  /** The word itself if WordNet has it in this part of speech, else its first base form that it has. */
  function baseForm(net: WordNet, word: string, pos: PartOfSpeech): { lemma: string; senses: number[] } | undefined {
    const candidates = [word, ...DETACHMENTS[pos].filter(([suffix]) => word.endsWith(suffix) && word.length > suffix.length + 1).map(([suffix, ending]) => word.slice(0, -suffix.length) + ending)];
    for (const lemma of candidates) {
      const senses = net.senses(lemma, pos);
      if (senses.length > 0) return { lemma, senses };
    }
    return undefined;
  }

  function lookUp(word: string): Array<{ word: string; kind: RelationKind }> {
    const net = (wordnet ??= open());
    const related: Array<{ word: string; kind: RelationKind }> = [];
    const add = (candidate: string, kind: RelationKind) => {
      if (/^[a-z]{3,}$/.test(candidate) && candidate !== word && !related.some((r) => r.word === candidate)) related.push({ word: candidate, kind });
    };
    for (const pos of PARTS_OF_SPEECH) {
      const base = baseForm(net, word, pos);
      if (!base) continue;
      for (const offset of base.senses.slice(0, EXPANSION.senses)) {
        const synset = net.synset(pos, offset);
        if (!synset) continue;
        const own = synset.words.indexOf(base.lemma) + 1;
        // Derivations and pertainyms first: they carry a word across parts of speech (day → daily),
        // which a stemmer never does; synonyms after them.
        for (const pointer of synset.pointers) {
          if ((pointer.symbol !== "+" && pointer.symbol !== "\\") || (pointer.source !== 0 && pointer.source !== own)) continue;
          const target = net.synset(pointer.pos, pointer.offset);
          if (!target) continue;
          for (const [i, other] of target.words.entries()) if (pointer.target === 0 || pointer.target === i + 1) add(other, "derived");
        }
        for (const other of synset.words) add(other, "synonym");
      }
    }
    return related.slice(0, EXPANSION.perWord);
  }

  function relations(word: string): Array<{ word: string; kind: RelationKind }> {
    const key = word.toLowerCase();
    const known = cache.get(key);
    if (known) return known;
    const related = STOP_WORDS.has(key) ? [] : lookUp(key);
    if (cache.size >= MAX_CACHED_WORDS) cache.clear();
    cache.set(key, related);
    return related;
  }

  return {
    relations,
    relatedWords: (word) => relations(word).map((r) => r.word),
    expandQuery(text) {
      if (!EXPANSION.enabled) return [];
      // Plain words only: an identifier (`fct_orders`, TW-1120, DAU/MAU) is matched as written.
      const plain = text
        .toLowerCase()
        .split(/\s+/)
        .map((token) => token.replace(/^[("'“‘]+|[)"'”’.,;:!?]+$/g, ""))
        .filter((word) => /^[a-z]{3,}$/.test(word) && !STOP_WORDS.has(word));
      const words = [...new Set(plain)];
      return words
        .slice(0, EXPANSION.words)
        .map((word) => {
          const kept = relations(word).filter((other) => !words.includes(other.word));
          return { word, related: kept.map((r) => r.word), kinds: kept.map((r) => r.kind) };
        })
        .filter((expansion) => expansion.related.length > 0);
    },
  };
}

/** The process's expansion: WordNet's files are opened on the first search that needs them. */
export const lexicalExpansion = createLexicalExpansion();
