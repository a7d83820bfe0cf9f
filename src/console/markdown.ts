import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";
import { SafeHtml } from "./html";

// Raw HTML off: a pushed `<script>` stays text. markdown-it already refuses javascript:/vbscript:/
// file: links; the sanitiser below is the second, independent layer the markdown-it docs ask for.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "s", "code", "pre", "blockquote",
    "ul", "ol", "li", "a", "img", "table", "thead", "tbody", "tr", "th", "td",
  ],
  // rel, loading and referrerpolicy are set by the transforms below, never taken from the input.
  allowedAttributes: {
    a: ["href", "title", "rel"],
    img: ["src", "alt", "title", "loading", "referrerpolicy"],
    ol: ["start"],
  },
  // Links may go anywhere a person can follow safely; images load only over https: or from this
  // origin (relative paths), never data:, http: or protocol-relative addresses.
  allowedSchemes: ["https", "http", "mailto"],
  allowedSchemesByTag: { img: ["https"] },
  allowProtocolRelative: false,
  disallowedTagsMode: "escape",
  transformTags: {
    a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer nofollow" }),
    img: sanitizeHtml.simpleTransform("img", { loading: "lazy", referrerpolicy: "no-referrer" }),
  },
};

/** Untrusted Markdown to HTML that cannot run script, restyle the page or load from http:. */
export function renderMarkdown(source: string): SafeHtml {
  return new SafeHtml(sanitizeHtml(markdown.render(source), SANITIZE));
}

/**
 * An image address the console will load: https: anywhere, or a path on this origin. Everything
 * else (data:, javascript:, http:, //host, backslash tricks) is refused.
 */
export function isAllowedImageSource(src: string): boolean {
  if (/^\/(?![/\\])/.test(src)) return !/[\s\\]/.test(src);
  try {
    return new URL(src).protocol === "https:" && !/[\s\\]/.test(src);
  } catch {
    return false;
  }
}
