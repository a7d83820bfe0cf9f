import type { Adapter, AdapterPayload } from "oidc-provider";
import type { OAuthStoreService } from "../services/oauth-store.service";

/**
 * oidc-provider's storage interface over the database (both engines): one class per record kind,
 * every call handed to the OAuth store service, which keeps only digests of secret ids.
 */
export function storageAdapter(store: OAuthStoreService): new (kind: string) => Adapter {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly kind: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
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
