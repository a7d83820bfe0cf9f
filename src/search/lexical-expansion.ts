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

export type Relation = { word: string; kind: RelationKind };

/**
 * Every look-up is asynchronous: a word not yet known is read from WordNet's files (wordnet.ts),
 * which a search must not do synchronously (it would stall every other request of the process).
 * A word being looked up is read once however many searches ask for it meanwhile. When WordNet
 * cannot be read (its files fail to open), the look-up, and so the search, fails; the next one
 * tries again.
 */
export interface LexicalExpansion {
  /** The words WordNet relates to one word (lower-cased), bounded; empty when WordNet lacks it. */
  relatedWords(word: string): Promise<string[]>;
  /** The same, each with how it is related. */
  relations(word: string): Promise<Relation[]>;
  /** The query's words that have related words, each with them, in query order; bounded. */
  expandQuery(text: string): Promise<WordExpansion[]>;
}

export function createLexicalExpansion(open: () => WordNet = () => openWordNet()): LexicalExpansion {
  let wordnet: WordNet | undefined;
  const cache = new Map<string, Relation[]>();
  /** Words being looked up: a second search asking for one meanwhile waits for the same look-up. */
  const pending = new Map<string, Promise<Relation[]>>();

  /** The word itself if WordNet has it in this part of speech, else its first base form that it has. */
  async function baseForm(net: WordNet, word: string, pos: PartOfSpeech): Promise<{ lemma: string; senses: number[] } | undefined> {
    const candidates = [word, ...DETACHMENTS[pos].filter(([suffix]) => word.endsWith(suffix) && word.length > suffix.length + 1).map(([suffix, ending]) => word.slice(0, -suffix.length) + ending)];
    for (const lemma of candidates) {
      const senses = await net.senses(lemma, pos);
      if (senses.length > 0) return { lemma, senses };
    }
    return undefined;
  }

  /** The related words of one part of speech, in order: per sense read, derivations and pertainyms, then synonyms. */
  async function relatedIn(net: WordNet, word: string, pos: PartOfSpeech): Promise<Relation[]> {
    const base = await baseForm(net, word, pos);
    if (!base) return [];
    const found: Relation[] = [];
    for (const offset of base.senses.slice(0, EXPANSION.senses)) {
      const synset = await net.synset(pos, offset);
      if (!synset) continue;
      const own = synset.words.indexOf(base.lemma) + 1;
      // Derivations and pertainyms first: they carry a word across parts of speech (day → daily),
      // which a stemmer never does; synonyms after them.
      const pointers = synset.pointers.filter((pointer) => (pointer.symbol === "+" || pointer.symbol === "\\") && (pointer.source === 0 || pointer.source === own));
      const targets = await Promise.all(pointers.map((pointer) => net.synset(pointer.pos, pointer.offset)));
      for (const [p, pointer] of pointers.entries()) {
        const target = targets[p];
        if (!target) continue;
        for (const [i, other] of target.words.entries()) if (pointer.target === 0 || pointer.target === i + 1) found.push({ word: other, kind: "derived" });
      }
      for (const other of synset.words) found.push({ word: other, kind: "synonym" });
    }
    return found;
  }

  async function lookUp(word: string): Promise<Relation[]> {
    const net = (wordnet ??= open());
    // The parts of speech are read at once; their words are taken in the same order as one by one.
    // A failure fails the look-up once every part has ended: nothing of it is still reading then.
    const settled = await Promise.allSettled(PARTS_OF_SPEECH.map((pos) => relatedIn(net, word, pos)));
    const failed = settled.find((part) => part.status === "rejected");
    if (failed) throw failed.reason;
    const found = settled.flatMap((part) => (part.status === "fulfilled" ? part.value : []));
    const related: Relation[] = [];
    for (const candidate of found) {
      if (/^[a-z]{3,}$/.test(candidate.word) && candidate.word !== word && !related.some((r) => r.word === candidate.word)) related.push(candidate);
    }
    return related.slice(0, EXPANSION.perWord);
  }

  function relations(word: string): Promise<Relation[]> {
    const key = word.toLowerCase();
    const known = cache.get(key);
    if (known) return Promise.resolve(known);
    let looking = pending.get(key);
    if (!looking) {
      const started = (looking = (STOP_WORDS.has(key) ? Promise.resolve<Relation[]>([]) : lookUp(key))
        .then((related) => {
          if (cache.size >= MAX_CACHED_WORDS) cache.clear();
          cache.set(key, related);
          return related;
        })
        .finally(() => pending.get(key) === started && pending.delete(key)));
      pending.set(key, started);
    }
    return looking;
  }

  return {
    relations,
    relatedWords: async (word) => (await relations(word)).map((r) => r.word),
    async expandQuery(text) {
      if (!EXPANSION.enabled) return [];
      // Plain words only: an identifier (`fct_orders`, TW-1120, DAU/MAU) is matched as written.
      const plain = text
        .toLowerCase()
        .split(/\s+/)
        .map((token) => token.replace(/^[("'“‘]+|[)"'”’.,;:!?]+$/g, ""))
        .filter((word) => /^[a-z]{3,}$/.test(word) && !STOP_WORDS.has(word));
      const words = [...new Set(plain)];
      const expanded = await Promise.all(words.slice(0, EXPANSION.words).map((word) => relations(word)));
      return expanded
        .map((related, i) => {
          const kept = related.filter((other) => !words.includes(other.word));
          return { word: words[i]!, related: kept.map((r) => r.word), kinds: kept.map((r) => r.kind) };
        })
        .filter((expansion) => expansion.related.length > 0);
    },
  };
}

/** The process's expansion: WordNet's files are opened, asynchronously, on the first search that needs them. */
export const lexicalExpansion = createLexicalExpansion();
