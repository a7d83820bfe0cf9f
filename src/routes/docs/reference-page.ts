import path from "node:path";
import express, { type Request, type Response, type Router } from "express";

/** The Swagger UI files the page loads, served from the npm package: no CDN, works offline. */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Workspace Intelligence API reference</title>
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/reference.js"></script>
</body>
</html>
`;

// validatorUrl: null keeps the page from sending the document to the public swagger.io validator.
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: "/api/v1/openapi.json",
  dom_id: "#reference",
  deepLinking: true,
  validatorUrl: null,
  displayOperationId: true,
  persistAuthorization: false,
});
`;

/**
 * Its own Content-Security-Policy: scripts only from this origin (the init script is a file, not
 * inline); Swagger UI sets inline style attributes and data: images, so those are allowed for
 * styles and images only. "Try it out" may call this origin and PUBLIC_BASE_URL's.
 */
function contentSecurityPolicy(publicBaseUrl?: string): string {
  const apiOrigin = publicBaseUrl ? ` ${new URL(publicBaseUrl).origin}` : "";
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src 'self'${apiOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** GET /docs: the API reference, the public OpenAPI document rendered by Swagger UI. */
export function referencePageRouter(publicBaseUrl?: string): Router {
  const router = express.Router();
  const csp = contentSecurityPolicy(publicBaseUrl);
  const assetsDir = path.dirname(require.resolve("swagger-ui-dist/package.json"));
  const common = (res: Response) => res.set({ "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer" });

  router.get("/docs", (_req: Request, res: Response) => {
    common(res).set({ "Content-Security-Policy": csp, "Cache-Control": "no-cache" }).type("html").send(PAGE);
  });
  router.get("/docs/reference.js", (_req: Request, res: Response) => {
    common(res).set("Cache-Control", "no-cache").type("text/javascript; charset=utf-8").send(INIT_SCRIPT);
  });
  router.get("/docs/assets/:file", (req: Request<{ file: string }>, res: Response, next) => {
    const type = ASSETS[req.params.file];
    if (!type) return next();
    // The package version is pinned, so a day of caching is safe; a new version ships with a deploy.
    common(res).set({ "Content-Type": type, "Cache-Control": "public, max-age=86400" });
    res.sendFile(path.join(assetsDir, req.params.file));
  });
  return router;
}
