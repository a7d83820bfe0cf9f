import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { exitOf, SERVER_TEST_TIMEOUT_MS, runAdminCli, startServer, type Started } from "../support/server-process";
import { waitFor } from "../support/wait-for";

describe("the server process on an embedded database", () => {
  let dataDir: string;
  let server: Started | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "wsi-server-"));
    server = await startServer(dataDir);
  }, SERVER_TEST_TIMEOUT_MS);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill("SIGKILL");
      await exitOf(server.child);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints a working full-access key for the Demo workspace on first run", async () => {
    const key = /API_KEY=(wsi_[0-9A-Za-z]+)/.exec(server!.output())?.[1];
    expect(key).toBeDefined();
    const res = await fetch(`${server!.baseUrl}/api/v1/skills`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(server!.output()).toContain('created workspace "Demo"');
  });

  it("prints a reviewer sign-in for the Demo workspace that opens the console", async () => {
    const email = /email: +(\S+)/.exec(server!.output())![1]!;
    const password = /password: +(\S+)/.exec(server!.output())![1]!;
    const form = await fetch(`${server!.baseUrl}/console/sign-in`);
    const cookie = form.headers.get("set-cookie")!.split(";")[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const res = await fetch(`${server!.baseUrl}/console/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf, email, password }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("set-cookie")).toContain("wsi_console_session=");
  });

  it("loads the demo workspace document into the Demo workspace on first run", async () => {
    const key = /API_KEY=(wsi_[0-9A-Za-z]+)/.exec(server!.output())![1];
    const res = await fetch(`${server!.baseUrl}/api/v1/briefing`, { headers: { authorization: `Bearer ${key}` } });
    const briefing = (await res.json()) as { workspace: { context: string }; directives: unknown[]; memories: unknown[] };
    expect(briefing.workspace.context).toMatch(/^Acme Cloud/);
    expect(briefing.directives.length).toBeGreaterThanOrEqual(3);
    expect(briefing.memories.length).toBeGreaterThan(0);
  });

  it("prints the admin token it generated, and the admin API accepts it", async () => {
    const token = /ADMIN_TOKEN=(adm_[0-9A-Za-z]+)/.exec(server!.output())?.[1];
    expect(token).toBeDefined();
    const res = await fetch(`${server!.baseUrl}/admin/v1/workspaces`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "From test" }),
    });
    expect(res.status).toBe(201);
  });

  it("tells a newcomer the next curl to run", () => {
    expect(server!.output()).toMatch(/curl -s -H "Authorization: Bearer wsi_[0-9A-Za-z]+" http:\/\/localhost:\d+\/api\/v1\/briefing/);
  });

  it("answers /healthz", async () => {
    const res = await fetch(`${server!.baseUrl}/healthz`);
    expect(res.status).toBe(200);
  });

  it("refuses a second server on the same data dir with a clear message", async () => {
    await expect(startServer(dataDir)).rejects.toMatchObject({
      output: expect.stringContaining("is in use by another process"),
    });
  }, SERVER_TEST_TIMEOUT_MS);

  it("lets npm run admin work while the server owns the data dir, through the server", async () => {
    const result = await runAdminCli(dataDir, ["workspace:create", "--name", "Via CLI"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: "Via CLI", id: expect.stringMatching(/^ws_/) });
    // The request's log line is written after its response and arrives through a pipe.
    await waitFor(() => server!.output().includes('"path":"/admin/v1/workspaces"'), { what: "the admin request's log line" });
  }, SERVER_TEST_TIMEOUT_MS);

  it("imports a skill folder with npm run admin -- skill:import, through the server", async () => {
    const workspaceId = /created workspace "Demo" \((ws_\w+)\)/.exec(server!.output())![1]!;
    const folder = mkdtempSync(path.join(os.tmpdir(), "wsi-skill-"));
    try {
      writeFileSync(path.join(folder, "SKILL.md"), "---\nname: from-folder\ndescription: Imported from a folder.\n---\n# Hi\n");
      const result = await runAdminCli(dataDir, ["skill:import", "--workspace", workspaceId, "--dir", folder]);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ imported: { skills: 1, skillFiles: 1 } });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, SERVER_TEST_TIMEOUT_MS);

  it("stops on SIGTERM within 10 seconds with exit code 0, with an embedding backlog", async () => {
    const token = /ADMIN_TOKEN=(adm_[0-9A-Za-z]+)/.exec(server!.output())![1];
    const workspaceId = /created workspace "Demo" \((ws_\w+)\)/.exec(server!.output())![1]!;
    const artifacts = Array.from({ length: 400 }, (_, i) => ({
      summary: `Backlog artifact ${i}: ${"gross margin moved in every region and segment ".repeat(12)}`,
      why: "Filling the index backlog",
      confidence: 0.5,
      confidenceExplanation: "synthetic",
    }));
    const imported = await fetch(`${server!.baseUrl}/admin/v1/workspaces/${workspaceId}/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ artifacts }),
    });
    expect(imported.status).toBe(200);
    const state = await fetch(`${server!.baseUrl}/admin/v1/workspaces/${workspaceId}/index`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await state.json()) as { tables: { artifacts: { pending: number } } }).tables.artifacts.pending).toBeGreaterThan(400);
    const exited = exitOf(server!.child);
    server!.child.kill("SIGTERM");
    const { code, ms } = await exited;
    // The server's last lines beside the code: a failure then says which way it ended (its deadline, or an error closing).
    expect({ code, lastLines: server!.output().split("\n").slice(-8) }).toMatchObject({ code: 0 });
    expect(ms).toBeLessThan(10_000);
  }, SERVER_TEST_TIMEOUT_MS);

  it("lets npm run admin open the database itself when no server runs", async () => {
    const result = await runAdminCli(dataDir, ["workspace:create", "--name", "Direct"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: "Direct" });
  }, SERVER_TEST_TIMEOUT_MS);

  it("makes npm run admin exit 1 with the error body for a bad request", async () => {
    const result = await runAdminCli(dataDir, ["key:create", "--workspace", "ws_missing", "--name", "k"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({ error: "Workspace ws_missing not found", code: "not_found" });
  }, SERVER_TEST_TIMEOUT_MS);

  it("shows neither a new key nor the admin token when started again, only where the token is kept", async () => {
    const again = await startServer(dataDir);
    try {
      expect(again.output()).not.toContain("API_KEY=");
      expect(again.output()).not.toContain("ADMIN_TOKEN=");
      expect(again.output()).toContain(`Admin API enabled with the token kept in ${path.resolve(dataDir, "admin-token")}`);
    } finally {
      const exited = exitOf(again.child);
      again.child.kill("SIGTERM");
      await exited;
    }
  }, SERVER_TEST_TIMEOUT_MS);
});
