import type { SkillFileKind } from "../generated/prisma/enums";
import { isUtf8Text } from "../lib/utf8-text";

const MARKDOWN = ["md", "markdown", "mdx"];
const SCRIPTS = ["py", "sh", "bash", "zsh", "js", "mjs", "cjs", "ts", "sql", "rb", "r", "pl", "ps1", "go", "java", "scala", "kt", "php", "lua", "jl"];
const TEXTS = ["txt", "csv", "tsv", "json", "jsonl", "yaml", "yml", "toml", "xml", "html", "htm", "css", "ini", "cfg", "conf", "log", "svg"];

const CONTENT_TYPES: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  py: "text/x-python",
  sh: "application/x-sh",
  js: "text/javascript",
  mjs: "text/javascript",
  sql: "application/sql",
  json: "application/json",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  yaml: "application/yaml",
  yml: "application/yaml",
  xml: "application/xml",
  html: "text/html",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  parquet: "application/vnd.apache.parquet",
};

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/**
 * A skill file's kind from its extension, checked against its bytes: a `.md` that is not UTF-8
 * text is binary, since it could not be returned inline. Unknown extensions are text when the
 * bytes are UTF-8 without NUL (a script when they start with a shebang), binary otherwise.
 */
export function inferSkillFileKind(path: string, bytes: Uint8Array): SkillFileKind {
  if (!isUtf8Text(bytes)) return "binary";
  const extension = extensionOf(path);
  if (MARKDOWN.includes(extension)) return "markdown";
  if (SCRIPTS.includes(extension)) return "script";
  if (TEXTS.includes(extension)) return "text";
  return bytes[0] === 0x23 && bytes[1] === 0x21 ? "script" : "text";
}

/** The Content-Type a download of the file is served with. */
export function contentTypeOf(path: string, kind: SkillFileKind): string {
  const known = CONTENT_TYPES[extensionOf(path)];
  if (kind === "binary") return known ?? "application/octet-stream";
  return `${known ?? "text/plain"}; charset=utf-8`;
}
