import { cutAt } from "../lib/cut-text";
import { CONTENT_JSON_LIMIT } from "./render-limits";

export interface ContentJson {
  artifactId: string;
  /** Characters of the content's JSON text, whether or not all of it is here. */
  contentChars: number;
  contentTruncated: boolean;
  note?: string;
  /** The content as stored, or, when cut, the first characters of its JSON text. */
  content: unknown;
}

/**
 * An artifact's content for the console's JSON link: capped, so that a link cannot send an
 * unbounded amount whatever was stored, and saying so when cut.
 */
export function contentAsJson(artifactId: string, content: unknown): ContentJson {
  const stored = content ?? null;
  const text = JSON.stringify(stored);
  if (text.length <= CONTENT_JSON_LIMIT) return { artifactId, contentChars: text.length, contentTruncated: false, content: stored };
  return {
    artifactId,
    contentChars: text.length,
    contentTruncated: true,
    note: `The content's JSON text is ${text.length.toLocaleString("en")} characters; this is its first ${CONTENT_JSON_LIMIT.toLocaleString("en")} characters.`,
    content: cutAt(text, CONTENT_JSON_LIMIT),
  };
}
