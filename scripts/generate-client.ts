import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildOpenApiDocument } from "../src/http/openapi-document";
import { apiV1DocumentInfo, apiV1DocumentedRoutes } from "../src/routes/api-v1";

/**
 * Regenerates clients/typescript/schema.ts from the served OpenAPI document (built in-process from
 * the routes, exactly as GET /api/v1/openapi.json serves it without PUBLIC_BASE_URL).
 * With --check it writes nothing and fails when the committed file differs.
 */
const TARGET = path.join(__dirname, "..", "clients", "typescript", "schema.ts");
const HEADER = "// Generated from GET /api/v1/openapi.json by `npm run client:generate`. Do not edit.\n";

async function generate(): Promise<string> {
  const { default: openapiTS, astToString, COMMENT_HEADER } = await import("openapi-typescript");
  const document = buildOpenApiDocument(apiV1DocumentedRoutes(), apiV1DocumentInfo());
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]);
  return `${HEADER}${COMMENT_HEADER}${astToString(ast)}`;
}

async function main(): Promise<void> {
  const generated = await generate();
  const relative = path.relative(process.cwd(), TARGET);
  if (process.argv.includes("--check")) {
    const committed = (() => {
      try {
        return readFileSync(TARGET, "utf8");
      } catch {
        return "";
      }
    })();
    if (committed !== generated) {
      console.error(`${relative} is out of date with the OpenAPI document: run npm run client:generate and commit it`);
      process.exit(1);
    }
    console.log(`${relative} matches the OpenAPI document`);
    return;
  }
  writeFileSync(TARGET, generated);
  console.log(`wrote ${relative}`);
}

void main();
