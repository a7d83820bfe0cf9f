import { cutAt } from "../lib/cut-text";
import { JsonText } from "../lib/json-text";

/** The detail response carries at most this many characters of content (UTF-16 code units). */
export const CONTENT_LIMIT = 20_000;

export interface ShownContent {
  content?: unknown;
  contentTruncated: boolean;
}

/**
 * String content: its first 20,000 characters. Structured content: as stored while its JSON text
 * fits, otherwise the first 20,000 characters of that text. A cut never splits a surrogate pair.
 */
export function showContent(content: unknown): ShownContent {
  if (content === null || content === undefined) return { contentTruncated: false };
  // Stored text within the limit is shown as it is, unparsed: its value's text (and a string
  // value itself) is never longer than the stored JSON text.
  if (content instanceof JsonText) return content.text.length <= CONTENT_LIMIT ? { content, contentTruncated: false } : showContent(content.value());
  const text = typeof content === "string" ? content : JSON.stringify(content);
  if (text.length <= CONTENT_LIMIT) return { content, contentTruncated: false };
  return { content: cutAt(text, CONTENT_LIMIT), contentTruncated: true };
}
