import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { isUtf8Text } from "../lib/utf8-text";

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

/**
 * The import-document entry of a skill folder in the Agent Skills layout: `SKILL.md` whose YAML
 * front matter names the skill, and every file beneath the folder. Only the shape is read here;
 * the admin import route validates it, so the rules live in one place.
 */
export function readSkillFolder(dir: string) {
  const root = path.resolve(dir);
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`The skill folder ${dir} was not found (${root})`);
  const skillFile = path.join(root, "SKILL.md");
  if (!existsSync(skillFile)) throw new Error(`${dir} is not a skill folder: it has no SKILL.md`);
  const meta = readFrontMatter(readFileSync(skillFile, "utf8"), skillFile);
  return {
    name: meta.name,
    description: meta.description,
    source: "uploaded",
    allowedTools: toolList(meta["allowed-tools"]),
    compatibility: meta.compatibility,
    files: filesBeneath(root).map((relative) => {
      const bytes = readFileSync(path.join(root, ...relative.split("/")));
      return isUtf8Text(bytes) ? { path: relative, content: bytes.toString("utf8") } : { path: relative, contentBase64: bytes.toString("base64") };
    }),
  };
}

function readFrontMatter(text: string, file: string): Record<string, unknown> {
  const match = FRONT_MATTER.exec(text);
  if (!match) throw new Error(`${file} must start with YAML front matter between --- lines (name, description)`);
  const meta: unknown = parseYaml(match[1]!);
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) throw new Error(`The front matter of ${file} must be a YAML mapping`);
  return meta as Record<string, unknown>;
}

/** `allowed-tools` as a YAML list, or as one string separated by commas (or, without commas, by spaces). */
function toolList(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const separator = value.includes(",") ? "," : /\s+/;
  return value.split(separator).map((tool) => tool.trim()).filter(Boolean);
}

/** Relative POSIX paths of the regular files beneath root, sorted; hidden files and folders (.git, .DS_Store) are left out. */
function filesBeneath(root: string, prefix = ""): string[] {
  const paths: string[] = [];
  for (const entry of readdirSync(path.join(root, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) paths.push(...filesBeneath(root, relative));
    else if (entry.isFile()) paths.push(relative);
  }
  return paths.sort();
}
