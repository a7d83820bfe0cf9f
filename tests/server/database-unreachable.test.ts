import { createServer, type AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { exitOf, SERVER_TEST_TIMEOUT_MS, startServer, type Started } from "../support/server-process";

/** A loopback port nothing listens on: one that was free a moment ago. */
async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => probe.once("listening", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe("the server process with an unreachable DATABASE_URL", () => {
  it("exits 1 with one sentence naming DATABASE_URL, the host and the port, never the password", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "wsi-unreachable-"));
    const port = await closedPort();
    let started: Started | undefined;
    try {
      const failure = await startServer(dataDir, {
        DATABASE_URL: `postgresql://wsi:hunter2-secret@127.0.0.1:${port}/wsi`,
        PUBLIC_BASE_URL: "https://api.example.test",
        SIGNING_SECRET: "a-signing-secret-of-at-least-32-characters",
        LOG_LEVEL: "silent",
      }).then(
        (server) => {
          started = server;
          throw new Error("the server started on a closed port");
        },
        (error: Error & { output?: string }) => error,
      );
      expect(failure.message).toBe("server exited with 1");
      const output = failure.output!.trim();
      expect(output).toBe(
        `Could not connect to the database DATABASE_URL names (host 127.0.0.1, port ${port}): connect ECONNREFUSED 127.0.0.1:${port}. Check that the server runs there and that DATABASE_URL is right.`,
      );
      expect(output).not.toContain("hunter2");
    } finally {
      if (started && started.child.exitCode === null) {
        started.child.kill("SIGKILL");
        await exitOf(started.child);
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, SERVER_TEST_TIMEOUT_MS);
});
