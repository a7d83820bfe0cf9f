/**
 * Characters a reader cannot see but that change what they read: controls (C0, C1, DEL), format
 * characters (bidirectional embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069,
 * U+061C, zero-width characters U+200B–U+200F, U+FEFF, soft hyphen…), line and paragraph
 * separators, and lone surrogates. "Claude\u202Egnp.exe" reads "Claudeexe.png": a name shown to a
 * person deciding whom to trust must not hold any of them.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

const codePointOf = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

/** The first invisible character of `text` as `U+202E`, or undefined when there is none. */
export function firstInvisibleCharacter(text: string): string | undefined {
  const found = text.match(new RegExp(INVISIBLE.source, "u"));
  return found ? codePointOf(found[0]) : undefined;
}

/**
 * Whether `text` shows nothing at all: only whitespace and invisible characters. A person needs
 * something to read and click where such text would stand ("\u200B" renders as an empty link).
 */
export function showsNothing(text: string): boolean {
  return text.replace(INVISIBLE, "").trim() === "";
}

/** `text` with each invisible character written out as `[U+202E]`, for showing text stored before it was refused. */
export function showInvisibleCharacters(text: string): string {
  return text.replace(INVISIBLE, (char) => `[${codePointOf(char)}]`);
}
