import type { Clock } from "../lib/clock";
import type { StoredBlobRepository } from "../repositories/stored-blob.repository";
import type { DownloadSigner } from "./download-token";
import { reachStorage, type FileStorage } from "./file-storage";

/** The path of the public route that serves signed downloads (see routes/downloads). */
export const DOWNLOADS_PATH = "/downloads";

/**
 * Bytes in Postgres (`stored_blobs`); downloads through this app's own signed, expiring route. The
 * URL is relative unless PUBLIC_BASE_URL is known; the API makes it absolute from the request.
 */
export function createDatabaseFileStorage(deps: {
  blobs: StoredBlobRepository;
  signer: DownloadSigner;
  clock: Clock;
  publicBaseUrl?: string;
}): FileStorage {
  return {
    put: (key, bytes) => reachStorage("put", () => deps.blobs.put(key, bytes)),
    get: (key) => reachStorage("get", () => deps.blobs.get(key)),
    remove: (keys) => reachStorage("delete", () => deps.blobs.deleteMany(keys)),
    async downloadUrl(key, { filename, contentType, expiresInSeconds }) {
      const expiresAt = Math.floor(deps.clock.now().getTime() / 1000) + expiresInSeconds;
      const token = deps.signer.sign({ key, filename, contentType, expiresAt });
      return `${deps.publicBaseUrl?.replace(/\/+$/, "") ?? ""}${DOWNLOADS_PATH}/${token}`;
    },
  };
}
