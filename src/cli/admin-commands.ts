import { readFileSync } from "node:fs";
import { importParts } from "./import-parts";
import { readSkillFolder } from "./skill-folder";

export const USAGE = `Usage: npm run admin -- <command> [options]

Workspaces
  workspace:create --name NAME [--organization ORG] [--context TEXT]
  workspace:update --workspace ID [--name NAME] [--context TEXT]
  workspace:isolate --workspace ID [--node HOST:PORT]
                                               Citus: a shard of its own, moved to the worker named, kept
                                               there by later rebalances (see docs/deployment.md §6)
API keys
  key:create --workspace ID --name NAME [--scopes a,b]   prints the secret once
  key:list --workspace ID
  key:revoke --workspace ID --key ID
Connected apps (MCP connectors a console account approved through OAuth)
  app:list --workspace ID
  app:revoke --workspace ID --app ID
Reviewers (sign-ins for the review console at /console)
  reviewer:add --workspace ID --email EMAIL --name NAME --password PASSWORD
  reviewer:list --workspace ID
  reviewer:remove --workspace ID --reviewer ID
Review
  artifacts --workspace ID [--status draft|validated|disputed] [--limit N]
  validate --workspace ID --artifact ID --by NAME
  dispute --workspace ID --artifact ID --by NAME --reason TEXT
Import, export and search
  import --workspace ID --file FILE.json       the import document (see docs/intelligence.md); one over
                                               900 KB goes in parts of whole entries, each all or nothing
  export --workspace ID [--file FILE.json]     the workspace as an import document, written as it is read
                                               (to FILE, or to stdout); see docs/operations.md
  skill:import --workspace ID --dir PATH       a skill folder: SKILL.md with YAML front matter, and its files
  reindex --workspace ID                       re-embeds after an embeddings model change; retries failed rows
  index-status <workspaceId>                   pending / failed (with errors) / embedded vectors, per kind
Deletion (at once and for good; see docs/operations.md)
  artifact:delete --workspace ID --artifact ID
  memory:delete --workspace ID --memory ID     a ledger memory (an artifact's memory goes with the artifact)
  skill:delete --workspace ID --skill NAME     the skill, its files and their stored bytes
  data-source:delete --workspace ID --source NAME
                                               the source with its query patterns and error learnings
  workspace:delete --workspace ID --yes        the workspace and everything derived from it
Names
  check:names                                  skills, skill files and data sources, in every workspace, whose
                                               names or paths break the grammars (docs/intelligence.md);
                                               exits 1 if there are any

Talks to the running server's admin API when it owns DATA_DIR; otherwise opens the database itself.
Prints the JSON answer; exits 1 on an error answer, or when check:names finds names.`;

export type Options = Record<string, string | undefined>;
export type AdminRequest = {
  method: string;
  path: string;
  body?: unknown;
  /** Whether a successful answer still fails the command, for checks that a script runs. */
  failsOn?: (body: unknown) => boolean;
  /** A large answer written as it arrives, to this file ("-": stdout), instead of being printed as JSON. */
  saveTo?: string;
  /** An import sent as several bodies in turn (importParts), stopping at the first refused. */
  parts?: unknown[];
};

function required(options: Options, name: string): string {
  const value = options[name];
  if (value === undefined || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

export class UsageError extends Error {}

/**
 * What a refused command prints: the sentence saying what was wrong, then the one usage line of the
 * command (the whole help when the command is unknown would bury the sentence).
 */
export function refusalText(message: string, command: string | undefined): string {
  const line = command ? USAGE.split("\n").find((candidate) => candidate.startsWith(`  ${command} `) || candidate === `  ${command}`) : undefined;
  if (!line) return `${message}\nRun npm run admin -- --help for the commands.`;
  // A usage line is the command and its options, then, after a gap, what it does.
  return `${message}\nUsage: npm run admin -- ${line.trim().split(/\s{2,}/)[0]}`;
}

export const dropUndefined = (options: Options): Options => Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));

export const isParseArgsError = (error: unknown) =>
  typeof (error as { code?: unknown })?.code === "string" && (error as { code: string }).code.startsWith("ERR_PARSE_ARGS");

/** The command's exit code: 1 on an error answer, or when a check finds something. */
export const exitCodeOf = (request: AdminRequest, status: number, body: unknown): number =>
  status >= 400 || request.failsOn?.(body) ? 1 : 0;

const enc = encodeURIComponent;

/** Each command of `npm run admin`, as the admin API request it sends. */
export const COMMANDS: Record<string, (options: Options) => AdminRequest> = {
  "workspace:create": (o) => ({
    method: "POST",
    path: "/admin/v1/workspaces",
    body: { name: required(o, "name"), organization: o.organization, context: o.context },
  }),
  "workspace:isolate": (o) => ({
    method: "POST",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/isolate`,
    body: { node: o.node },
  }),
  "workspace:update": (o) => ({
    method: "PATCH",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}`,
    body: { name: o.name, context: o.context },
  }),
  "key:create": (o) => ({
    method: "POST",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/keys`,
    body: { name: required(o, "name"), scopes: o.scopes ? o.scopes.split(",").map((s) => s.trim()).filter(Boolean) : undefined },
  }),
  "key:list": (o) => ({ method: "GET", path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/keys` }),
  "key:revoke": (o) => ({
    method: "DELETE",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/keys/${enc(required(o, "key"))}`,
  }),
  "app:list": (o) => ({ method: "GET", path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/connected-apps` }),
  "app:revoke": (o) => ({
    method: "DELETE",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/connected-apps/${enc(required(o, "app"))}`,
  }),
  "reviewer:add": (o) => ({
    method: "POST",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/reviewers`,
    body: { email: required(o, "email"), name: required(o, "name"), password: required(o, "password") },
  }),
  "reviewer:list": (o) => ({ method: "GET", path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/reviewers` }),
  "reviewer:remove": (o) => ({
    method: "DELETE",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/reviewers/${enc(required(o, "reviewer"))}`,
  }),
  artifacts: (o) => {
    const query = new URLSearchParams(dropUndefined({ status: o.status, limit: o.limit }) as Record<string, string>).toString();
    return { method: "GET", path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/artifacts${query ? `?${query}` : ""}` };
  },
  validate: (o) => ({
    method: "POST",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/artifacts/${enc(required(o, "artifact"))}/validate`,
    body: { by: required(o, "by") },
  }),
  dispute: (o) => ({
    method: "POST",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/artifacts/${enc(required(o, "artifact"))}/dispute`,
    body: { by: required(o, "by"), reason: required(o, "reason") },
  }),
  "index-status": (o) => ({ method: "GET", path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/index` }),
  reindex: (o) => ({ method: "POST", path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/reindex` }),
  "check:names": () => ({
    method: "GET",
    path: "/admin/v1/name-violations",
    failsOn: (body) => ((body as { items?: unknown[] } | null)?.items?.length ?? 0) > 0,
  }),
  import: (o) => {
    const document: unknown = JSON.parse(readFileSync(required(o, "file"), "utf8"));
    const path = `/admin/v1/workspaces/${enc(required(o, "workspace"))}/import`;
    if (document === null || typeof document !== "object" || Array.isArray(document)) return { method: "POST", path, body: document };
    const parts = importParts(document as Record<string, unknown>);
    return parts.length === 1 ? { method: "POST", path, body: parts[0] } : { method: "POST", path, parts };
  },
  export: (o) => ({ method: "GET", path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/export`, saveTo: o.file ?? "-" }),
  "artifact:delete": (o) => ({
    method: "DELETE",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/artifacts/${enc(required(o, "artifact"))}`,
  }),
  "memory:delete": (o) => ({
    method: "DELETE",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/memories/${enc(required(o, "memory"))}`,
  }),
  "skill:delete": (o) => ({
    method: "DELETE",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/skills/${enc(required(o, "skill"))}`,
  }),
  "data-source:delete": (o) => ({
    method: "DELETE",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/data-sources/${enc(required(o, "source"))}`,
  }),
  "workspace:delete": (o) => {
    const workspace = required(o, "workspace");
    if (o.yes === undefined) throw new UsageError(`workspace:delete deletes workspace ${workspace} and everything in it, for good; add --yes to go ahead`);
    return { method: "DELETE", path: `/admin/v1/workspaces/${enc(workspace)}` };
  },
  "skill:import": (o) => ({
    method: "POST",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/import`,
    body: { skills: [readSkillFolder(required(o, "dir"))] },
  }),
};

/**
 * What the CLI prints for an answer. Most answers are printed as they come; a few are reworded
 * because the admin API's answer alone reads badly on a terminal: a 204 has no body, and reindex's
 * `cleared` beside `pending: false` looks like a contradiction when it means "marked, then done",
 * and its two counts must read as parts of one whole.
 */
export function presentAnswer(command: string, options: Options, status: number, body: unknown): unknown {
  if (status >= 400) return body;
  if (command === "key:revoke" && status === 204) return { revoked: options.key };
  if (command === "app:revoke" && status === 204) return { revoked: options.app };
  if (command === "reviewer:remove" && status === 204) return { removed: options.reviewer };
  const deleted: Record<string, string | undefined> = {
    "artifact:delete": options.artifact,
    "memory:delete": options.memory,
    "skill:delete": options.skill,
    "data-source:delete": options.source,
  };
  if (command in deleted && status === 204) return { deleted: deleted[command] };
  if (command === "reindex" && isReindexResult(body)) {
    const marked = Object.values(body.cleared).reduce((sum, count) => sum + count, 0);
    return {
      outcome: body.pending
        ? `${marked} vectors marked for re-embedding; the background indexer is making them (see index-status)`
        : reindexedNow(marked, body.embedded),
      markedForReembedding: body.cleared,
      embeddedNow: body.embedded,
      finished: !body.pending,
    };
  }
  return body;
}

/**
 * A finished reindex in numbers that add up. The command embeds what it can claim; the rows it
 * marked first may meanwhile be claimed by a background indexer (the server's own, or a worker's),
 * and a row without text is set aside rather than embedded, so `embedded` can be less than `marked`.
 */
function reindexedNow(marked: number, embedded: number): string {
  if (embedded >= marked) return `${marked} vectors made again by this command; none left to do`;
  return `${marked} vectors to make again: ${embedded} made by this command, the other ${marked - embedded} by the background indexer alongside it or set aside for having no text (see index-status)`;
}

function isReindexResult(body: unknown): body is { cleared: Record<string, number>; embedded: number; pending: boolean } {
  const candidate = body as { cleared?: unknown; embedded?: unknown; pending?: unknown } | null;
  return typeof candidate?.cleared === "object" && typeof candidate.embedded === "number" && typeof candidate.pending === "boolean";
}

const text = { type: "string" } as const;
export const OPTIONS = {
  name: text,
  organization: text,
  context: text,
  workspace: text,
  scopes: text,
  key: text,
  status: text,
  limit: text,
  artifact: text,
  email: text,
  password: text,
  reviewer: text,
  by: text,
  reason: text,
  file: text,
  dir: text,
  memory: text,
  skill: text,
  source: text,
  app: text,
  node: text,
  yes: { type: "boolean" },
  help: { type: "boolean" },
} as const;
