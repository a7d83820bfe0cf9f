import { rmSync } from "node:fs";
import path from "node:path";

export default async function globalTeardown(): Promise<void> {
  const file = process.env.WSI_TEST_TEMPLATE;
  if (file) rmSync(path.dirname(file), { recursive: true, force: true });
}
