import { readFileSync } from "node:fs";
import path from "node:path";
import { ImportDocumentSchema, type ImportDocument } from "../contracts/import";
import { projectRoot } from "../lib/project-root";

/** A realistic analytics workspace, so that every endpoint answers something on a first `npm run dev`. */
export const DEMO_DOCUMENT = path.join("docs", "examples", "demo-workspace.json");

export function loadDemoDocument(): ImportDocument {
  return ImportDocumentSchema.parse(JSON.parse(readFileSync(path.join(projectRoot(), DEMO_DOCUMENT), "utf8")));
}
