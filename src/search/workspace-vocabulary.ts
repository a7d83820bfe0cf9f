/**
 * The workspace's own vocabulary: acronyms and the names they stand for, and defined terms with
 * the opening words of their definitions, as its definition memories and table annotations spell
 * them ("MTBF means mean time between failures: …", "Net revenue retention (NRR) is …"), never
 * column names (acronyms read from them helped the tuning half only: docs/search.md, "Filters and expansion:
 * what was tried"). A query that uses one side matches documents that use the other: "MTBF by
 * city" finds an artifact about "mean time between failures", and the other way round.
 * docs/search.md has the rules and the judged-set figures.
 */

/** What a workspace says its words mean, in the order written: definition memories, and table annotations' descriptions and use cases. */
export interface DefinitionTexts {
  definitions: string[];
  annotations: string[];
}

/** Where a workspace's vocabulary is read from (vocabulary.repository.ts). */
export interface VocabularySource {
  definitionTexts(workspaceId: string): Promise<DefinitionTexts>;
  /** Each text's search lexemes, spelled as queries and documents spell them. */
  lexemesOf(texts: string[]): Promise<string[][]>;
}

/**
 * Two ways of saying one thing, as written: an acronym and the name it stands for, or a defined
 * term and the opening words of its definition.
 */
export interface VocabularyPair {
  kind: "acronym" | "definition";
  term: string;
  expansion: string;
}

/** A pair as search lexemes (stemmed as queries and documents are). */
export interface VocabularyEntry {
  /** The pair as written, for the query's vector. */
  pair: VocabularyPair;
  term: string[];
  expansion: string[];
  /**
   * The share of a side's lexemes a query must hold for the entry to apply: all of an acronym or
   * a name; two thirds of a definition's words, which a question rarely repeats word for word.
   */
  cover: number;
}

export const COVER = { acronym: 1, definition: 2 / 3 } as const;

/** Pairs a workspace may hold at most; the rest are ignored (a bound on what a search carries). */
export const MAX_VOCABULARY_PAIRS = 200;
const MAX_EXPANSION_WORDS = 8;

const ACRONYM = String.raw`[A-Z][A-Z0-9]+(?:\/[A-Z][A-Z0-9]+)?`;
/** "Net revenue retention (NRR)": up to 6 words before an acronym in parentheses. */
const NAME_THEN_ACRONYM = new RegExp(String.raw`((?:[A-Za-z][\w'-]*\s+){0,5}[A-Za-z][\w'-]*)\s*\((${ACRONYM})\)`, "g");
/** "MTBF means mean time between failures: …", "CAC is customer acquisition cost", "PAYG riders are pay-as-you-go riders who …". */
const ACRONYM_DEFINED = new RegExp(String.raw`^(?:(?:[Aa]n?|[Tt]he)\s+)?(${ACRONYM})(?:\s+[a-z]+)?\s*(?:means|is|are|stands for|:)\s+(?:(?:the|an?)\s+)?(.+)$`, "s");
/**
 * "Pass churn is the share of subscriptions cancelled …", "A churned account has no active paid
 * subscription …", "Activation refers to …": a term of up to 3 words, defined by what it is or
 * what it has. The longer verbs come first, so that "is defined as" is not read as "is" followed
 * by "defined as …".
 */
const TERM_DEFINED =
  /^(?:(?:[Aa]n?|[Tt]he)\s+)?([A-Za-z][\w/-]*(?:\s+[a-z][\w/-]*){0,2})\s+(?:is defined as|are defined as|refers to|refer to|denotes|stands for|means|is|are|has|have)\s+(?:(?:the|an?)\s+)?([^.:;]+)/;
/**
 * "Churn: customers leaving …": a term before a colon. Read in definition memories only: a table's
 * description uses the colon for lists ("Every payment: passes, single rides …").
 */
const TERM_LABELLED = /^(?:(?:[Aa]n?|[Tt]he)\s+)?([A-Za-z][\w/-]*(?:\s+[a-z][\w/-]*){0,2})\s*:\s+(?:(?:the|an?)\s+)?([^.:;]+)/;
/**
 * Words of a definition kept as the term's other side: enough to recognise it, few enough that a
 * question holds two thirds of them. 8: the last round's 5 helped the tuning half only (held-out:
 * Fenmoor Health's query intelligence lost a question, Cobalt Cycles' gained 0.01 of MRR).
 */
const DEFINITION_WORDS = 8;

/**
 * The rules of the last round, each of which can be switched (`npm run eval -- --variants` measures
 * the service without each; docs/search.md, "Filters and expansion: what was tried", says which the held-out sets kept).
 */
export const VOCABULARY_RULES = {
  /** The other name of an acronym the query uses added to the text its vector is made from (vectorText). */
  vectorNames: true,
  /** Words of a definition kept as the term's other side. */
  definitionWords: DEFINITION_WORDS,
};

/** Where the name ends and the rest of the definition begins. */
const CLAUSE_END = /[:;,.()]|\s(?:who|which|that|where|when|with|for|of all|excluding)\s/;

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean);

/** The first letter of each word (hyphenated parts too): "pay-as-you-go riders" → "paygr". */
const initials = (name: string) =>
  words(name)
    .flatMap((word) => word.split("-"))
    .map((part) => part[0]?.toLowerCase() ?? "")
    .join("");

/** Whether the acronym's letters start the name's words in order: MTBF → "mean time between failures". */
function abbreviates(acronym: string, name: string): boolean {
  const letters = acronym.toLowerCase().replace(/[^a-z]/g, "");
  const firsts = initials(name);
  let at = 0;
  for (const letter of letters) {
    at = firsts.indexOf(letter, at);
    if (at < 0) return false;
    at += 1;
  }
  return letters.length > 0 && firsts[0] === letters[0];
}

/**
 * The pairs the texts define, each acronym once (its first definition wins): definition memories,
 * then annotation texts (descriptions and use cases of tables).
 */
export function vocabularyPairs(definitions: string[], annotations: string[] = []): VocabularyPair[] {
  const pairs = new Map<string, VocabularyPair>();
  const add = (term: string, expansion: string) => {
    const name = expansion.trim();
    const count = words(name).length;
    if (count < 2 || count > MAX_EXPANSION_WORDS || pairs.has(term) || initials(name)[0] !== term[0]!.toLowerCase()) return;
    pairs.set(term, { kind: "acronym", term, expansion: name });
  };
  const texts = [...definitions.map((text) => ({ text, labels: true })), ...annotations.map((text) => ({ text, labels: false }))];
  for (const { text, labels } of texts) {
    // "ARPU is average revenue per active rider": a definition says what the acronym stands for
    // even where the letters differ, so only its first letter must agree.
    const defined = ACRONYM_DEFINED.exec(text.trim());
    if (defined) add(defined[1]!, defined[2]!.split(CLAUSE_END)[0]!);
    const term = defined ? undefined : (TERM_DEFINED.exec(text.trim()) ?? (labels ? TERM_LABELLED.exec(text.trim()) : null));
    if (term && !pairs.has(term[1]!.toLowerCase())) {
      const definition = words(term[2]!).slice(0, VOCABULARY_RULES.definitionWords).join(" ").replace(/,$/, "");
      if (words(definition).length >= 2) pairs.set(term[1]!.toLowerCase(), { kind: "definition", term: term[1]!, expansion: definition });
    }
    for (const match of text.matchAll(NAME_THEN_ACRONYM)) {
      const acronym = match[2]!;
      // The words before the parenthesis, as many as the acronym has letters (more for "of", "and").
      const before = words(match[1]!);
      for (let take = Math.min(before.length, acronym.replace(/[^A-Z]/g, "").length + 2); take >= 2; take--) {
        const name = before.slice(-take).join(" ");
        if (abbreviates(acronym, name)) {
          add(acronym, name);
          break;
        }
      }
    }
    if (pairs.size >= MAX_VOCABULARY_PAIRS) break;
  }
  return [...pairs.values()].slice(0, MAX_VOCABULARY_PAIRS);
}


/** Lexemes that may stand in for a query lexeme, and how many of them a candidate must hold. */
export interface Alternative {
  lexemes: string[];
  needed: number;
  /** What the query word counts for when a candidate holds the alternative instead; FUSION.vocabularyWeight when absent. */
  weight?: number;
}

/**
 * The share of an alternative a candidate must hold to be credited: most of an acronym's name
 * ("vehicle" alone is not "vehicles off road"; "pay-as-you-go trips" is "pay-as-you-go riders"
 * enough), half of a defined term, whose head noun is often absent where it is used ("logo churn"
 * for "churned account").
 */
export const HELD: Record<VocabularyPair["kind"], number> = { acronym: 2 / 3, definition: 1 / 2 };

/**
 * Which side of which entry a query holds, as the candidate query reports it (`t3`: the term of
 * the third entry, `e3`: its expansion; see `applied` in hybrid-candidates.ts): for each query
 * lexeme of that side, the other side's lexemes may stand in for it.
 */
export function alternativesOf(entries: VocabularyEntry[], applied: string[], queryLexemes: string[]): Map<string, Alternative[]> {
  const query = new Set(queryLexemes);
  const alternatives = new Map<string, Alternative[]>();
  for (const key of applied) {
    const entry = entries[Number(key.slice(1)) - 1];
    if (!entry) continue;
    const [side, other] = key.startsWith("t") ? [entry.term, entry.expansion] : [entry.expansion, entry.term];
    const alternative = { lexemes: other, needed: Math.ceil(other.length * HELD[entry.pair.kind] - 1e-9) };
    for (const lexeme of side) if (query.has(lexeme)) alternatives.set(lexeme, [...(alternatives.get(lexeme) ?? []), alternative]);
  }
  return alternatives;
}

/** Names added to the text a query's vector is made from, at most. */
const MAX_VECTOR_NAMES = 3;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A phrase as whole words, whatever their case and the spaces between them, and its first word for a quick look first. */
interface PhrasePattern {
  firstWord: string;
  pattern: RegExp;
}
const phrasePattern = (phrase: string): PhrasePattern => ({
  firstWord: (words(phrase)[0] ?? "").toLowerCase(),
  pattern: new RegExp(`(?<![\\p{L}\\p{N}])${words(phrase).map(escaped).join("\\s+")}(?![\\p{L}\\p{N}])`, "iu"),
});
/**
 * Each pair's two patterns, made once: a vocabulary is reused for 30 s, and making 400 patterns on
 * every search cost 0.6 ms with 200 pairs (0.08 ms now).
 */
const patterns = new WeakMap<VocabularyPair, [PhrasePattern, PhrasePattern]>();
function patternsOf(pair: VocabularyPair): [PhrasePattern, PhrasePattern] {
  let made = patterns.get(pair);
  if (!made) patterns.set(pair, (made = [phrasePattern(pair.term), phrasePattern(pair.expansion)]));
  return made;
}

/**
 * The text a query's vector is made from: the query, then the other name of each acronym it uses
 * ("MTBF by city (mean time between failures)"). The model knows neither a workspace's acronyms nor
 * that they name the same thing as the words, so an item written with the other name lands nearer
 * this vector than the query's own. Only acronym pairs: a definition's words are no name for it.
 */
export function vectorText(text: string, entries: VocabularyEntry[]): string {
  if (!VOCABULARY_RULES.vectorNames) return text;
  const lower = text.toLowerCase();
  const added: string[] = [];
  for (const { pair } of entries) {
    if (pair.kind !== "acronym" || added.length === MAX_VECTOR_NAMES) continue;
    const [hasTerm, hasExpansion] = patternsOf(pair).map(({ firstWord, pattern }) => lower.includes(firstWord) && pattern.test(text));
    if (hasTerm !== hasExpansion) added.push(hasTerm ? pair.expansion : pair.term);
  }
  return added.length === 0 ? text : `${text} (${added.join("; ")})`;
}

/**
 * How long a process reuses a workspace's vocabulary: a new or deactivated definition takes
 * effect in searches within this time.
 */
export const VOCABULARY_TTL_MS = 30_000;
const MAX_CACHED_WORKSPACES = 10_000;

/** Each workspace's vocabulary as lexemes, read at most once per VOCABULARY_TTL_MS per process. */
export function createWorkspaceVocabulary(repository: VocabularySource, ttlMs = VOCABULARY_TTL_MS) {
  const cached = new Map<string, { until: number; entries: Promise<VocabularyEntry[]> }>();
  async function load(workspaceId: string): Promise<VocabularyEntry[]> {
    const texts = await repository.definitionTexts(workspaceId);
    const pairs = vocabularyPairs(texts.definitions, texts.annotations);
    const lexemes = await repository.lexemesOf(pairs.flatMap((pair) => [pair.term, pair.expansion]));
    return pairs
      .map((pair, i) => ({ pair, term: lexemes[2 * i] ?? [], expansion: lexemes[2 * i + 1] ?? [], cover: COVER[pair.kind] }))
      .filter((entry) => entry.term.length > 0 && entry.expansion.length > 0);
  }
  return {
    entries(workspaceId: string): Promise<VocabularyEntry[]> {
      const now = Date.now();
      const known = cached.get(workspaceId);
      if (known && known.until > now) return known.entries;
      if (cached.size >= MAX_CACHED_WORKSPACES) cached.clear();
      const entries = load(workspaceId);
      cached.set(workspaceId, { until: now + ttlMs, entries });
      // A failed read is not kept: the next search tries again.
      entries.catch(() => cached.delete(workspaceId));
      return entries;
    },

    /** Reads the workspace's vocabulary afresh on its next search: a definition or a data source of it was deleted, or the workspace itself. */
    forget(workspaceId: string): void {
      cached.delete(workspaceId);
    },
  };
}

export type WorkspaceVocabulary = ReturnType<typeof createWorkspaceVocabulary>;
