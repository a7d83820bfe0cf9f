import { loggablePath } from "../../src/http/request-context";

describe("the path written to logs", () => {
  it.each([
    ["/downloads/tok.en-123", "/downloads/[redacted]"],
    ["/DOWNLOADS/tok.en-123", "/downloads/[redacted]"],
    ["//downloads//tok.en-123", "/downloads/[redacted]"],
    ["/downloads/tok.en-123?x=1", "/downloads/[redacted]"],
  ])("redacts the download token of %s, however routing would still match it", (url, logged) => {
    expect(loggablePath(url)).toBe(logged);
  });

  it("drops the query string and keeps other paths as they are", () => {
    expect(loggablePath("/api/v1/artifacts?query=secret")).toBe("/api/v1/artifacts");
  });
});
