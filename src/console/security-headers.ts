import helmet from "helmet";

/**
 * helmet's defaults, tightened for pages that show untrusted content: scripts and styles only from
 * this origin (no 'unsafe-inline'), images from here or https:, no plugins, no framing, forms
 * posting only here, no <base>. HSTS is left to the TLS front (a local http console must work).
 */
export const consoleSecurityHeaders = helmet({
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "https:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      mediaSrc: ["'none'"],
      frameSrc: ["'none'"],
      workerSrc: ["'none'"],
      manifestSrc: ["'self'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      scriptSrcAttr: ["'none'"],
    },
  },
  strictTransportSecurity: false,
  referrerPolicy: { policy: "same-origin" },
  crossOriginEmbedderPolicy: false,
  xFrameOptions: { action: "deny" },
});
