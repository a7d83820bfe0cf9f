import "dotenv/config";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config";
import { callAdmin, callAdminToFile, connectAdmin } from "./admin-client";
import { COMMANDS, dropUndefined, exitCodeOf, isParseArgsError, OPTIONS, type Options, presentAnswer, USAGE, UsageError } from "./admin-commands";

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
  const options = { workspace: positionals[1], ...dropUndefined(values as Options) };
  const request = build(options);
  const connection = await connectAdmin(loadConfig());
  try {
    if (request.saveTo !== undefined) {
      const saved = await callAdminToFile(connection, request.path, request.saveTo);
      // On stdout the document is the output; a file's name and size are reported instead.
      if (saved.status >= 400) console.log(JSON.stringify(saved.body, null, 2));
      else if (request.saveTo !== "-") console.log(JSON.stringify({ exported: options.workspace, file: request.saveTo, bytes: saved.bytes }, null, 2));
      return exitCodeOf(request, saved.status, saved.body);
    }
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
    if (error instanceof UsageError || isParseArgsError(error)) console.error(`${(error as Error).message}\n\n${USAGE}`);
    else if (error instanceof ConfigError) console.error(error.message);
    else console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
