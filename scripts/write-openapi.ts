import { writeFileSync } from "node:fs";
import { buildOpenApiDocument } from "../src/http/openapi-document";
import { apiV1DocumentInfo, apiV1DocumentedRoutes } from "../src/routes/api-v1";

/**
 * Writes the served OpenAPI document (built in-process from the same route list the server mounts,
 * no server or database needed) to the path given, or to stdout.
 */
const out = process.argv[2];
const text = `${JSON.stringify(buildOpenApiDocument(apiV1DocumentedRoutes(), apiV1DocumentInfo()), null, 2)}\n`;
if (out) writeFileSync(out, text);
else process.stdout.write(text);
