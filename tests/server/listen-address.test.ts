import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { exitOf, runAdminCli, SERVER_TEST_TIMEOUT_MS, startServer, type Started } from "../support/server-process";
import { waitFor } from "../support/wait-for";

/** Whether a TCP connection to the address and port is accepted. */
function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** A real server on the embedded database, listening at `host`, for the tests of one describe block. */
function serverAt(host: string): { dataDir: () => string; started: () => Started } {
  let dataDir: string;
  let server: Started | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "wsi-host-"));
    server = await startServer(dataDir, { HOST: host, DYNO: "" });
  }, SERVER_TEST_TIMEOUT_MS);
  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      const exited = exitOf(server.child);
      server.child.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { dataDir: () => dataDir, started: () => server! };
}

describe("the server process with HOST=127.0.0.1", () => {
  const { started } = serverAt("127.0.0.1");

  it("listens on the loopback interface alone, and says so in its log", async () => {
    const port = Number(new URL(started().baseUrl).port);
    // The log line follows the banner the start waited for.
    const listening = await waitFor(
      () =>
        started()
          .output()
          .split("\n")
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as { msg?: string; address?: string; port?: number })
          .find((line) => line.msg === "listening"),
      { what: `the "listening" log line:\n${started().output()}` },
    );
    expect(listening).toMatchObject({ address: "127.0.0.1", port });
    expect((await fetch(`http://127.0.0.1:${port}/livez`)).status).toBe(200);
    // Every other interface of this machine, where it has any: nothing listens there.
    const elsewhere = Object.values(os.networkInterfaces())
      .flat()
      .filter((entry) => entry !== undefined && !entry.internal && entry.family === "IPv4")
      .map((entry) => entry!.address);
    for (const address of elsewhere) expect(await accepts(address, port)).toBe(false);
  });
});

describe("the server process with HOST at one other address (127.0.0.2, a loopback address of its own on Linux)", () => {
  const { dataDir, started } = serverAt("127.0.0.2");

  it("is reached by npm run admin at the address it listens on", async () => {
    const port = Number(new URL(started().baseUrl).port);
    expect(await accepts("127.0.0.1", port)).toBe(false);
    const result = await runAdminCli(dataDir(), ["workspace:create", "--name", "Via 127.0.0.2"]);
    expect(result).toMatchObject({ code: 0 });
    expect(JSON.parse(result.stdout)).toMatchObject({ name: "Via 127.0.0.2", id: expect.stringMatching(/^ws_/) });
    // The request's log line is written after its response and arrives through a pipe.
    await waitFor(() => started().output().includes('"path":"/admin/v1/workspaces"'), { what: "the admin request's log line" });
  }, SERVER_TEST_TIMEOUT_MS);
});
