import { DomainError, notFound } from "../domain/errors";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { DownloadSigner } from "../storage/download-token";
import type { FileStorage } from "../storage/file-storage";
import { callStorage } from "./storage-call";

/** Serves the signed, expiring download links of the `database` file storage; they need no API key. */
export function createDownloadService(deps: {
  signer: DownloadSigner;
  storage: Pick<FileStorage, "get">;
  clock: Clock;
  logger: Logger;
}) {
  return {
    async open(token: string): Promise<{ bytes: Uint8Array; filename: string; contentType: string }> {
      const verified = deps.signer.verify(token, deps.clock.now());
      if (!verified.ok) {
        throw new DomainError(
          "forbidden",
          verified.reason === "expired"
            ? "This download link has expired; ask the API for the file again to get a new one"
            : "This download link is not valid",
        );
      }
      const { key, filename, contentType } = verified.grant;
      const bytes = await callStorage(deps.logger, { storageKey: key }, () => deps.storage.get(key));
      if (!bytes) throw notFound("The file behind this download link no longer exists");
      return { bytes, filename, contentType };
    },
  };
}

export type DownloadService = ReturnType<typeof createDownloadService>;
