import type { Config } from "../config";
import type { Clock } from "../lib/clock";
import type { StoredBlobRepository } from "../repositories/stored-blob.repository";
import { createDatabaseFileStorage } from "./database-file-storage";
import type { DownloadSigner } from "./download-token";
import type { FileStorage } from "./file-storage";
import { createS3FileStorage } from "./s3-file-storage";

/** The file storage FILE_STORAGE names. */
export function createFileStorage(
  settings: Config["fileStorage"],
  deps: { blobs: StoredBlobRepository; signer: DownloadSigner; clock: Clock; publicBaseUrl?: string },
): FileStorage {
  return settings.kind === "s3" ? createS3FileStorage(settings) : createDatabaseFileStorage(deps);
}
