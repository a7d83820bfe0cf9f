import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { addressRefusal, clientMetadataFetch } from "../../src/oauth/client-metadata-fetch";
import { createTestApp, type TestApp } from "../support/test-app";

/** A TCP server that only counts the connections it is offered: any fetch that got as far as connecting shows here. */
async function countingServer(host: string): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections };
}

let t: TestApp;
let v4: Awaited<ReturnType<typeof countingServer>>;
let v6: Awaited<ReturnType<typeof countingServer>>;

beforeAll(async () => {
  // As deployed: no CA for a private network, and no loopback (which only tests turn on).
  t = await createTestApp();
  [v4, v6] = await Promise.all([countingServer("127.0.0.1"), countingServer("::1")]);
});
afterAll(async () => {
  for (const { server } of [v4, v6].filter(Boolean)) {
    await new Promise((resolve) => server.close(resolve));
  }
  await t?.close();
});

/** An authorization request naming `clientId` as a Client ID Metadata Document: what a browser following a link gets. */
const authorize = (clientId: string) =>
  request(t.app)
    .get("/oauth/authorize")
    .query({ client_id: clientId, response_type: "code", redirect_uri: "https://connector.example/callback", code_challenge: "x".repeat(43), code_challenge_method: "S256" });

describe("where Client ID Metadata Documents are fetched from", () => {
  it("refuses a loopback document in any spelling before connecting: the server listening there sees no connection", async () => {
    const spellings = [
      `https://127.0.0.1:${v4.port}/c.json`,
      `https://2130706433:${v4.port}/c.json`,
      `https://0x7f.1:${v4.port}/c.json`,
      `https://017700000001:${v4.port}/c.json`,
      `https://127.1:${v4.port}/c.json`,
      `https://[::ffff:127.0.0.1]:${v4.port}/c.json`,
      `https://0.0.0.0:${v4.port}/c.json`,
      `https://localhost:${v4.port}/c.json`,
      `https://localhost.:${v4.port}/c.json`,
      `https://LOCALHOST:${v4.port}/c.json`,
      `https://[::1]:${v6.port}/c.json`,
      `https://[::]:${v6.port}/c.json`,
    ];
    for (const clientId of spellings) {
      const res = await authorize(clientId);
      expect({ clientId, status: res.status, location: res.headers.location }).toEqual({ clientId, status: 400, location: undefined });
      expect(res.text).toContain("client_id metadata document fetch not allowed");
    }
    expect({ v4: v4.connections(), v6: v6.connections() }).toEqual({ v4: 0, v6: 0 });
  });

  it.each([
    ["https://10.1.2.3/c.json", "10.1.2.3 is a private address"],
    ["https://172.20.0.1/c.json", "172.20.0.1 is a private address"],
    ["https://192.168.1.1/c.json", "192.168.1.1 is a private address"],
    ["https://100.64.0.1/c.json", "100.64.0.1 is a private address"],
    ["https://[fd12::1]/c.json", "fd12::1 is a private address"],
    ["https://169.254.169.254/c.json", "169.254.169.254 is a link-local address"],
    ["https://[fe80::1]/c.json", "fe80::1 is a link-local address"],
    ["https://[::ffff:169.254.169.254]/c.json", "::ffff:a9fe:a9fe is a link-local address"],
    ["https://[::ffff:10.0.0.1]/c.json", "::ffff:a00:1 is a private address"],
    ["https://224.0.0.1/c.json", "224.0.0.1 is a multicast or broadcast address"],
    ["https://255.255.255.255/c.json", "255.255.255.255 is a multicast or broadcast address"],
    ["https://[64:ff9b::7f00:1]/c.json", "64:ff9b::7f00:1 is a special-purpose address"],
  ])("refuses %s before connecting (%s)", async (clientId, reason) => {
    const res = await authorize(clientId);
    expect(res.status).toBe(400);
    expect(res.text).toContain(`client_id metadata document fetch not allowed: ${reason}`);
  });

  it("connects only to the addresses it checked: the fetch itself refuses a name that resolves to loopback, and a loopback literal", async () => {
    const fetchDocument = clientMetadataFetch({ privateNetworks: false, loopback: false });
    for (const url of [`https://localhost:${v4.port}/c.json`, `https://127.0.0.1:${v4.port}/c.json`, `https://[::1]:${v6.port}/c.json`]) {
      const failure = await fetchDocument(url, {}).then(
        () => undefined,
        (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
      );
      expect({ url, failure }).toEqual({ url, failure: expect.stringMatching(/is a loopback address|resolves to .*, a loopback address/) });
    }
    expect({ v4: v4.connections(), v6: v6.connections() }).toEqual({ v4: 0, v6: 0 });
  });

  it("lets a private network's documents through when a CA is configured for it, never loopback, link-local or special-purpose addresses", () => {
    const withCa = { privateNetworks: true, loopback: false };
    expect(["10.1.2.3", "172.20.0.1", "192.168.1.1", "100.64.0.1", "fd12::1", "::ffff:10.0.0.1"].map((address) => addressRefusal(address, withCa))).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(["127.0.0.1", "::1", "::ffff:127.0.0.1", "169.254.169.254", "fe80::1", "0.0.0.0", "::", "224.0.0.1", "2002:7f00:1::"].map((address) => addressRefusal(address, withCa))).toEqual([
      "127.0.0.1 is a loopback address",
      "::1 is a loopback address",
      "::ffff:127.0.0.1 is a loopback address",
      "169.254.169.254 is a link-local address",
      "fe80::1 is a link-local address",
      "0.0.0.0 is an unspecified address",
      ":: is an unspecified address",
      "224.0.0.1 is a multicast or broadcast address",
      "2002:7f00:1:: is a special-purpose address",
    ]);
    expect(["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"].map((address) => addressRefusal(address, { privateNetworks: false, loopback: false }))).toEqual([undefined, undefined]);
  });
});
