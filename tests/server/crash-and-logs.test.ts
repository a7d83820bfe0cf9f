import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readRunningServer } from "../../src/bootstrap/local-files";
import { exitOf, SERVER_TEST_TIMEOUT_MS, startServer, type Started } from "../support/server-process";
import { waitFor } from "../support/wait-for";

// The real server process: what its logs hold after a full run, and a restart after kill -9.
describe("the server process's logs and crash recovery", () => {
  let dataDir: string;
  let server: Started;
  let key: string;
  let adminToken: string;

  const api = (route: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${route}`, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers } });
  const push = async (summary: string) => {
    const res = await api("/api/v1/artifacts", {
      method: "POST",
      body: JSON.stringify({ summary, why: "w", confidence: 0.5, confidenceExplanation: "c" }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { artifactId: string }).artifactId;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "wsi-crash-"));
    server = await startServer(dataDir);
    key = /API_KEY=(wsi_[0-9A-Za-z]+)/.exec(server.output())![1]!;
    adminToken = /ADMIN_TOKEN=(adm_[0-9A-Za-z]+)/.exec(server.output())![1]!;
  }, SERVER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      const exited = exitOf(server.child);
      server.child.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("writes no API key, admin token or signed download link to its log lines", async () => {
    const workspaceId = /created workspace "Demo" \((ws_\w+)\)/.exec(server.output())![1]!;
    const imported = await fetch(`${server.baseUrl}/admin/v1/workspaces/${workspaceId}/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        skills: [{ name: "binary", description: "d", source: "authored", files: [{ path: "data.bin", contentBase64: "AP8BAg==" }] }],
      }),
    });
    expect(imported.status).toBe(200);
    const file = await api("/api/v1/skills/binary/files?path=data.bin");
    expect(file.status).toBe(200);
    const url = ((await file.json()) as { url: string }).url;
    const token = url.split("/downloads/")[1]!;
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(`${url}x`)).status).toBeGreaterThanOrEqual(400);
    await push("logged run");

    // A request's line is written once its response has gone, and reaches this process through a
    // pipe: wait for the last ones rather than read what has arrived so far.
    const logLines = await waitFor(
      () => {
        const lines = server.output().split("\n").filter((line) => line.startsWith("{"));
        const downloads = lines.filter((line) => line.includes('"path":"/downloads/[redacted]"'));
        return downloads.length >= 2 && lines.some((line) => line.includes('"path":"/api/v1/artifacts"')) && lines;
      },
      { what: "the log lines of both downloads and the push" },
    );
    for (const secret of [key, adminToken, token, token.slice(0, 40)]) {
      expect(logLines.filter((line) => line.includes(secret))).toEqual([]);
    }
  }, SERVER_TEST_TIMEOUT_MS);

  it("starts again at once after kill -9 and keeps every acknowledged push", async () => {
    const pushed: string[] = [];
    for (let i = 0; i < 5; i++) pushed.push(await push(`acknowledged ${i}`));
    // The server's own process, by the pid it recorded, as a crash would end it.
    const exited = exitOf(server.child);
    process.kill(readRunningServer(dataDir)!.pid, "SIGKILL");
    await exited;

    // A lock whose owner is gone is taken over at once; a live one's refuses the start (the server
    // does not wait for the lock to go stale), so starting at all is the proof.
    server = await startServer(dataDir).catch((error) => {
      throw new Error(`restart failed:\n${(error as { output?: string }).output}`);
    });
    const res = await api("/api/v1/feedback?limit=100");
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as { items: Array<{ artifactId: string }> }).items.map((item) => item.artifactId);
    expect(ids).toEqual(expect.arrayContaining(pushed));
  }, SERVER_TEST_TIMEOUT_MS);
});
