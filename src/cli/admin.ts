import "dotenv/config";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config";
import { callAdmin, connectAdmin } from "./admin-client";
import { readSkillFolder } from "./skill-folder";

const USAGE = `Usage: npm run admin -- <command> [options]

Workspaces
  workspace:create --name NAME [--organization ORG] [--context TEXT]
  workspace:update --workspace ID [--name NAME] [--context TEXT]
API keys
  key:create --workspace ID --name NAME [--scopes a,b]   prints the secret once
  key:list --workspace ID
  key:revoke --key ID
Reviewers (sign-ins for the review console at /console)
  reviewer:add --workspace ID --email EMAIL --name NAME --password PASSWORD
  reviewer:list --workspace ID
  reviewer:remove --workspace ID --reviewer ID
Review
  artifacts --workspace ID [--status draft|validated|disputed]
  validate --artifact ID --by NAME
  dispute --artifact ID --by NAME --reason TEXT
Import and search
  import --workspace ID --file FILE.json       the import document (see docs/intelligence.md)
  skill:import --workspace ID --dir PATH       a skill folder: SKILL.md with YAML front matter, and its files
  reindex --workspace ID                       re-embeds after an embeddings model change; retries failed rows
  index-status <workspaceId>                   pending / failed (with errors) / embedded vectors, per kind

Talks to the running server's admin API when it owns DATA_DIR; otherwise opens the database itself.
Prints the JSON answer; exits 1 on an error answer.`;

type Options = Record<string, string | undefined>;
type Request = { method: string; path: string; body?: unknown };

function required(options: Options, name: string): string {
  const value = options[name];
  if (value === undefined || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

class UsageError extends Error {}

const dropUndefined = (options: Options): Options => Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));

const isParseArgsError = (error: unknown) =>
  typeof (error as { code?: unknown })?.code === "string" && (error as { code: string }).code.startsWith("ERR_PARSE_ARGS");

const enc = encodeURIComponent;

const COMMANDS: Record<string, (options: Options) => Request> = {
  "workspace:create": (o) => ({
    method: "POST",
    path: "/admin/v1/workspaces",
    body: { name: required(o, "name"), organization: o.organization, context: o.context },
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
  "key:revoke": (o) => ({ method: "DELETE", path: `/admin/v1/keys/${enc(required(o, "key"))}` }),
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
  artifacts: (o) => ({
    method: "GET",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/artifacts${o.status ? `?status=${enc(o.status)}` : ""}`,
  }),
  validate: (o) => ({
    method: "POST",
    path: `/admin/v1/artifacts/${enc(required(o, "artifact"))}/validate`,
    body: { by: required(o, "by") },
  }),
  dispute: (o) => ({
    method: "POST",
    path: `/admin/v1/artifacts/${enc(required(o, "artifact"))}/dispute`,
    body: { by: required(o, "by"), reason: required(o, "reason") },
  }),
  "index-status": (o) => ({ method: "GET", path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/index` }),
  reindex: (o) => ({ method: "POST", path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/reindex` }),
  import: (o) => ({
    method: "POST",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/import`,
    body: JSON.parse(readFileSync(required(o, "file"), "utf8")),
  }),
  "skill:import": (o) => ({
    method: "POST",
    path: `/admin/v1/workspaces/${enc(required(o, "workspace"))}/import`,
    body: { skills: [readSkillFolder(required(o, "dir"))] },
  }),
};

const text = { type: "string" } as const;
const OPTIONS = {
  name: text,
  organization: text,
  context: text,
  workspace: text,
  scopes: text,
  key: text,
  status: text,
  artifact: text,
  email: text,
  password: text,
  reviewer: text,
  by: text,
  reason: text,
  file: text,
  dir: text,
  help: { type: "boolean" },
} as const;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const command = positionals[0];
  if (!command || command === "help" || values.help) {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  const build = COMMANDS[command];
  if (!build) throw new UsageError(`unknown command "${command}"`);
  // A workspace id may follow the command instead of --workspace.
  const request = build({ workspace: positionals[1], ...dropUndefined(values as Options) });
  const connection = await connectAdmin(loadConfig());
  try {
    const response = await callAdmin(connection, request.method, request.path, request.body);
    if (response.body !== null) console.log(JSON.stringify(response.body, null, 2));
    return response.status >= 400 ? 1 : 0;
  } finally {
    await connection.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || isParseArgsError(error)) console.error(`${(error as Error).message}\n\n${USAGE}`);
    else if (error instanceof ConfigError) console.error(error.message);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
