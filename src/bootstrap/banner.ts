import type { FirstRunResult } from "./first-run";
import type { LocalAdminToken } from "./local-files";

/** What a newcomer reads in the terminal: where the API is, the secrets made for them, what to run next. */
export function startupBanner(options: {
  baseUrl: string;
  database: string;
  adminToken?: string;
  /** The token kept in DATA_DIR when ADMIN_TOKEN is not set: shown only on the run that made it. */
  localAdminToken?: LocalAdminToken;
  firstRun?: FirstRunResult;
  /** Where telemetry goes, or that it is off (src/telemetry/telemetry-summary.ts). */
  telemetry: string;
}): string {
  const { baseUrl, firstRun } = options;
  const lines = ["", `Workspace Intelligence API listening on ${baseUrl} (${options.database})`, `Telemetry ${options.telemetry}`];
  if (firstRun) {
    lines.push(
      "",
      `First run: created workspace "${firstRun.workspaceName}" (${firstRun.workspaceId}) from ${firstRun.demoDocument}, and a full-access API key.`,
      `The key is shown this once; only its hash is stored:`,
      "",
      `  API_KEY=${firstRun.apiKey}`,
      "",
      `Review console: ${baseUrl}/console — sign in as (shown this once; only a hash is stored):`,
      "",
      `  email:    ${firstRun.reviewer.email}`,
      `  password: ${firstRun.reviewer.password}`,
    );
  }
  const local = options.localAdminToken;
  if (local?.created) {
    lines.push("", `Admin token (ADMIN_TOKEN was not set; shown this once, kept in ${local.file}):`, "", `  ADMIN_TOKEN=${local.token}`);
  } else if (local) {
    lines.push("", `Admin API enabled with the token kept in ${local.file} (set ADMIN_TOKEN to use your own).`);
  } else if (!options.adminToken) {
    lines.push("", "Admin API disabled: set ADMIN_TOKEN to enable /admin/v1.");
  }
  lines.push(
    "",
    "Try:",
    `  curl -s ${baseUrl}/api/v1/openapi.json | head -c 300`,
    firstRun
      ? `  curl -s -H "Authorization: Bearer ${firstRun.apiKey}" ${baseUrl}/api/v1/briefing`
      : `  curl -s -H "Authorization: Bearer $API_KEY" ${baseUrl}/api/v1/briefing`,
    "",
  );
  return lines.join("\n");
}
