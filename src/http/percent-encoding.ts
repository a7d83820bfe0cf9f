import type { Server } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { ApiError } from "./api-error";

/**
 * One decoding rule for the whole URL: a malformed percent-escape (or one that is not UTF-8) is a
 * 400 in the query string as it already is in the path, instead of silently becoming U+FFFD.
 */
export function rejectMalformedQuery(req: Request, _res: Response, next: NextFunction) {
  const start = req.url.indexOf("?");
  if (start !== -1) {
    for (const part of req.url.slice(start + 1).split(/[&=]/)) {
      try {
        decodeURIComponent(part.replace(/\+/g, " "));
      } catch {
        throw new ApiError("bad_request", "Query string contains invalid percent-encoding");
      }
    }
  }
  next();
}

/**
 * Answers what Node refuses before Express sees it (a URL or headers over the size limit, a
 * malformed request line) with the API's `{error, code}` body instead of a bare status line.
 */
export function answerClientErrorsAsJson(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) return;
    // A response already under way on this connection cannot be followed by another: close it.
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason, message, code] =
      error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "Request Header Fields Too Large", "The URL or headers are larger than the server's 16 KiB limit", "header_too_large"]
        : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
          ? [408, "Request Timeout", "The request was not received in time", "request_timeout"]
          : [400, "Bad Request", "The request is not valid HTTP", "bad_request"];
    const body = JSON.stringify({ error: message, code });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
