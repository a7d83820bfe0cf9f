import { DomainError } from "../domain/errors";
import type { Logger } from "../lib/logger";
import { StorageUnreachableError } from "../storage/file-storage";

/** Runs a file-storage call; a storage failure is a failed dependency for the caller, its cause is logged, never sent. */
export async function callStorage<T>(logger: Logger, context: Record<string, unknown>, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof StorageUnreachableError)) throw error;
    logger.warn({ err: error, ...context }, "file storage unreachable");
    throw new DomainError("dependency_failed", "File storage is unreachable; try again shortly");
  }
}
