export interface DownloadOptions {
  /** The name the browser saves the file under. */
  filename: string;
  contentType: string;
  expiresInSeconds: number;
}

/** Where skill file bytes live: Postgres (`database`) or any S3-compatible store (`s3`). */
export interface FileStorage {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes under the key, or null when nothing is stored there. */
  get(key: string): Promise<Uint8Array | null>;
  /** A time-limited address from which the bytes can be downloaded without an API key. */
  downloadUrl(key: string, options: DownloadOptions): Promise<string>;
  /** Deletes the bytes under these keys; a key that holds nothing is no error. */
  remove(keys: string[]): Promise<void>;
}

/** The storage could not be reached or refused to answer; the API turns it into a 502. */
export class StorageUnreachableError extends Error {
  constructor(operation: string, cause: unknown) {
    super(`file storage ${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "StorageUnreachableError";
  }
}

/** Runs a storage call, turning any failure of the store into a StorageUnreachableError. */
export async function reachStorage<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw error instanceof StorageUnreachableError ? error : new StorageUnreachableError(operation, error);
  }
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / RFC 5987). */
export function attachmentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
