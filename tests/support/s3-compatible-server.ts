import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface StoredObject {
  body: Buffer;
  contentType: string | undefined;
}

/**
 * A minimal S3-compatible endpoint on loopback (path-style `PUT`/`GET`/`DELETE /bucket/key`). It does not
 * check signatures; like S3 it answers a missing key with a NoSuchKey error and honours the
 * `response-content-type` / `response-content-disposition` parameters of presigned GETs.
 */
export async function startS3CompatibleServer() {
  const objects = new Map<string, StoredObject>();
  const requests: Array<{ method: string; url: string }> = [];
  const server: Server = createServer(async (req, res) => {
    requests.push({ method: req.method!, url: req.url! });
    const url = new URL(req.url!, "http://localhost");
    const path = decodeURIComponent(url.pathname);
    if (req.method === "DELETE") {
      objects.delete(path);
      res.writeHead(204).end();
      return;
    }
    if (req.method === "PUT") {
      objects.set(path, { body: await readBody(req), contentType: req.headers["content-type"] });
      res.writeHead(200, { etag: '"etag"' }).end();
      return;
    }
    const object = objects.get(path);
    if (!object) {
      res.writeHead(404, { "content-type": "application/xml" }).end(
        `<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>`,
      );
      return;
    }
    res.writeHead(200, {
      "content-type": url.searchParams.get("response-content-type") ?? object.contentType ?? "application/octet-stream",
      "content-length": object.body.length,
      ...(url.searchParams.has("response-content-disposition")
        ? { "content-disposition": url.searchParams.get("response-content-disposition")! }
        : {}),
    });
    res.end(object.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on: connections to it are refused at once. */
export async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
  });
}
