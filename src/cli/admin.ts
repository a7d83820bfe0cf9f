import "dotenv/config";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config";
import type { AdminConnection } from "./admin-client";
import { COMMANDS, dropUndefined, exitCodeOf, isParseArgsError, OPTIONS, type AdminRequest, type Options, presentAnswer, refusalText, USAGE, UsageError } from "./admin-commands";
import { addImportAnswer, type ImportTotals } from "./import-parts";

/**
 * An import in parts, one request each, in order; progress on stderr. Stops at the first part
 * refused: its answer, which part it was, and what the parts before it imported (they stay).
 */
async function importInParts(connection: AdminConnection, request: AdminRequest, parts: unknown[]): Promise<number> {
  const { callAdmin } = await import("./admin-client");
  const totals: ImportTotals = { imported: {}, artifactIds: [] };
  for (const [index, part] of parts.entries()) {
    const response = await callAdmin(connection, request.method, request.path, part);
    if (response.status >= 400) {
      console.log(JSON.stringify({ ...(response.body as object), failedPart: `${index + 1} of ${parts.length}`, importedBefore: totals.imported }, null, 2));
      return 1;
    }
    addImportAnswer(totals, response.body);
    console.error(`part ${index + 1} of ${parts.length} imported`);
  }
  console.log(JSON.stringify({ ...totals, parts: parts.length }, null, 2));
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const command = positionals[0];
  if (!command || command === "help" || values.help) {
    console.log(USAGE);
    // Asked for, the help is an answer; printed because the command is missing, it is a refusal.
    return command || values.help ? 0 : 1;
  }
  const build = COMMANDS[command];
  if (!build) throw new UsageError(`unknown command "${command}"`);
  // A workspace id may follow the command instead of --workspace.
  const options = { workspace: positionals[1], ...dropUndefined(values as Options) };
  const request = build(options);
  // Loaded only for a command that runs: it brings the whole app (to open the database itself when
  // no server runs), which help and refusals need not wait for.
  const { callAdmin, callAdminToFile, connectAdmin } = await import("./admin-client");
  const connection = await connectAdmin(loadConfig());
  try {
    if (request.saveTo !== undefined) {
      const saved = await callAdminToFile(connection, request.path, request.saveTo);
      // On stdout the document is the output; a file's name and size are reported instead.
      if (saved.status >= 400) console.log(JSON.stringify(saved.body, null, 2));
      else if (request.saveTo !== "-") console.log(JSON.stringify({ exported: options.workspace, file: request.saveTo, bytes: saved.bytes }, null, 2));
      return exitCodeOf(request, saved.status, saved.body);
    }
    if (request.parts) return await importInParts(connection, request, request.parts);
    const response = await callAdmin(connection, request.method, request.path, request.body);
    const shown = presentAnswer(command, options, response.status, response.body);
    if (shown !== null) console.log(JSON.stringify(shown, null, 2));
    return exitCodeOf(request, response.status, response.body);
  } finally {
    await connection.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || isParseArgsError(error)) console.error(refusalText((error as Error).message, process.argv.slice(2).find((arg) => !arg.startsWith("-"))));
    else if (error instanceof ConfigError) console.error(error.message);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
