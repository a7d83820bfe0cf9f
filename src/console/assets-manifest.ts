import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../lib/project-root";

/** Where the console's stylesheet and script live; served with a year-long cache. */
export const ASSETS_DIR = path.join(projectRoot(), "src", "console", "assets");

const versions = new Map<string, string>();

/**
 * The address of an asset with a version taken from its content, so that a year-long cache is
 * safe: a changed file gets a new address.
 */
export function assetUrl(file: "console.css" | "console.js" | "favicon.svg"): string {
  let version = versions.get(file);
  if (!version) {
    version = createHash("sha256").update(readFileSync(path.join(ASSETS_DIR, file))).digest("hex").slice(0, 12);
    versions.set(file, version);
  }
  return `/console/assets/${file}?v=${version}`;
}
