import type { Adapter, AdapterPayload } from "oidc-provider";
import { findUnstorableInput } from "../http/text-safety";
import type { OAuthStoreService } from "../services/oauth-store.service";

/**
 * oidc-provider's storage interface over the database (both engines): one class per record kind,
 * every call handed to the OAuth store service, which keeps only digests of secret ids.
 * `invalidRequest` makes the library's 400 for a record the database could not store (a request
 * parameter with a NUL character, say, kept in the interaction), which would otherwise be a 500.
 */
export function storageAdapter(store: OAuthStoreService, invalidRequest: (description: string) => Error): new (kind: string) => Adapter {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly kind: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      // An interaction keeps the authorization request's parameters under `params`: name the parameter.
      const unstorable = findUnstorableInput(payload);
      if (unstorable) throw invalidRequest(`${unstorable.path.replace(/^params\./, "")}: ${unstorable.problem}`);
      await store.upsert(this.kind, id, payload as Record<string, unknown>, expiresIn);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      return (await store.find(this.kind, id)) as AdapterPayload | undefined;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return (await store.findByUid(this.kind, uid)) as AdapterPayload | undefined;
    }

    // The device flow is not enabled: there are no user codes to look up.
    async findByUserCode(): Promise<AdapterPayload | undefined> {
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await store.consume(this.kind, id);
    }

    async destroy(id: string): Promise<void> {
      await store.destroy(this.kind, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await store.revokeByGrantId(grantId);
    }
  };
}
