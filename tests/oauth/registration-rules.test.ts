import request from "supertest";
import { DEFAULT_RATE_LIMITS } from "../../src/http/rate-limit/rate-limiters";
import { createTestApp, type TestApp } from "../support/test-app";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, registrations: 1_000 } });
});
afterAll(() => t.close());

const client = (overrides: Record<string, unknown> = {}) => ({
  client_name: "Rules check",
  redirect_uris: ["https://connector.example/callback"],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
  ...overrides,
});

// JSON.stringify writes a lone surrogate as its \ud800 escape, as a hostile client would send it.
const register = (body: unknown) => request(t.app).post("/oauth/register").set("Content-Type", "application/json").send(JSON.stringify(body));
const storedClients = () => t.database.prisma.oAuthRecord.count({ where: { kind: "Client" } });

describe("redirect URIs at registration", () => {
  it("refuses plain http to any host but a loopback one, with invalid_redirect_uri naming the URI", async () => {
    const before = await storedClients();
    for (const uri of ["http://evil.example/cb", "http://10.0.0.8/cb", "http://127.0.0.1.evil.example/cb", "http://localhost.evil.example/cb"]) {
      const res = await register(client({ redirect_uris: ["https://connector.example/callback", uri] }));
      expect({ uri, status: res.status, body: res.body }).toEqual({
        uri,
        status: 400,
        body: { error: "invalid_redirect_uri", error_description: expect.stringMatching(/^redirect_uris\[1\]: must use https; http is accepted only for a loopback host/) },
      });
    }
    expect(await storedClients()).toBe(before);
  });

  it("accepts https anywhere and http on localhost, 127.0.0.0/8 and [::1]", async () => {
    const uris = ["https://connector.example/callback", "http://localhost:8765/callback", "http://127.0.0.1:8765/callback", "http://127.8.9.10/callback", "http://[::1]:8765/callback"];
    const res = await register(client({ redirect_uris: uris }));
    expect(res.status).toBe(201);
    expect(res.body.redirect_uris).toEqual(uris);
  });

  it("accepts a native app's private-use scheme that is a reversed domain name, and no other scheme", async () => {
    const accepted = await register(client({ application_type: "native", redirect_uris: ["com.example.connector:/oauth/callback"] }));
    expect(accepted.status).toBe(201);
    expect(accepted.body.redirect_uris).toEqual(["com.example.connector:/oauth/callback"]);

    for (const [metadata, description] of [
      [{ redirect_uris: ["com.example.connector:/oauth/callback"] }, /application_type "native" only/],
      [{ application_type: "native", redirect_uris: ["connector:/oauth/callback"] }, /reversed domain name/],
      [{ application_type: "native", redirect_uris: ["javascript:alert(1)"] }, /reversed domain name/],
      [{ redirect_uris: ["https://user:secret@connector.example/callback"] }, /must not contain user information/],
      [{ redirect_uris: ["https://connector.example/callback#fragment"] }, /must not contain a fragment/],
      [{ redirect_uris: ["/callback"] }, /must be an absolute URI/],
    ] as const) {
      const res = await register(client(metadata));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "invalid_redirect_uri", error_description: expect.stringMatching(description) });
    }
  });
});

describe("text the database cannot store", () => {
  it.each([
    ["client_name", { client_name: "Claude\u0000" }, "client_name: contains a NUL character"],
    ["client_name", { client_name: "Claude\ud800" }, "client_name: contains a lone UTF-16 surrogate"],
    ["a redirect URI", { redirect_uris: ["https://connector.example/cb\u0000"] }, "redirect_uris[0]: contains a NUL character"],
    ["a redirect URI", { redirect_uris: ["https://connector.example/cb\udc00"] }, "redirect_uris[0]: contains a lone UTF-16 surrogate"],
    ["client_uri", { client_uri: "https://connector.example/\u0000" }, "client_uri: contains a NUL character"],
    ["logo_uri", { logo_uri: "https://connector.example/logo\ud800.png" }, "logo_uri: contains a lone UTF-16 surrogate"],
    ["tos_uri", { tos_uri: "https://connector.example/tos\u0000" }, "tos_uri: contains a NUL character"],
    ["policy_uri", { policy_uri: "https://connector.example/policy\u0000" }, "policy_uri: contains a NUL character"],
    ["software_id", { software_id: "id\u0000" }, "software_id: contains a NUL character"],
    ["contacts", { contacts: ["ops\u0000@connector.example"] }, "contacts[0]: contains a NUL character"],
    ["a field the server does not know", { "x-extra": { note: "\ud83d" } }, "x-extra.note: contains a lone UTF-16 surrogate"],
  ])("is refused in %s with 400 invalid_client_metadata naming the field, and nothing is stored", async (_field, metadata, description) => {
    const before = await storedClients();
    const res = await register(client(metadata));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_client_metadata", error_description: expect.stringContaining(description) });
    expect(await storedClients()).toBe(before);
  });
});

describe("the app's name", () => {
  it.each(["Claude\u202egnp.exe", "Claude\u202a", "Cla\u200bude", "Claude\u2066x\u2069", "\ufeffClaude", "Claude\u061c", "Claude\u200f", "Claude\u2028"])(
    "refuses invisible and text-direction characters (%j) with 400 naming client_name",
    async (name) => {
      const res = await register(client({ client_name: name }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: "invalid_client_metadata", error_description: expect.stringMatching(/^client_name: contains U\+[0-9A-F]{4}, an invisible or text-direction control character/) });
    },
  );

  it("accepts names in any script, right-to-left ones included", async () => {
    for (const name of ["Connecteur d'équipe", "日本語コネクタ", "موصل الفريق"]) {
      const res = await register(client({ client_name: name }));
      expect(res.status).toBe(201);
      expect(res.body.client_name).toBe(name);
    }
  });
});
