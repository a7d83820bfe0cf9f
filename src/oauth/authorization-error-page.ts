import type Provider from "oidc-provider";
import type { Configuration, KoaContextWithOIDC } from "oidc-provider";
import { escapeHtml } from "../lib/escape-html";

/**
 * A refusal shown to the person instead of being sent to the app: a plain page on this server's
 * origin, nothing loaded from elsewhere, saying what the app did wrong in the library's words.
 */
export const renderAuthorizationError: NonNullable<Configuration["renderError"]> = (ctx, out) => {
  ctx.type = "html";
  ctx.set("Cache-Control", "no-store");
  ctx.set("Content-Security-Policy", "default-src 'none'");
  const description = out.error_description ? `<p>${escapeHtml(String(out.error_description))}</p>` : "";
  ctx.body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The app's sign-in request was refused</title></head><body>
<h1>The app's sign-in request was refused</h1>
<p>The app that sent you here asked for access in a way this server does not accept, so you were not sent back to it and it received nothing.</p>
<p><strong>${escapeHtml(String(out.error))}</strong></p>${description}
<p>Start connecting again from the app; if this page comes back, tell the app's developer what it says.</p>
</body></html>`;
};

/**
 * Errors found at the authorization endpoint before the person has seen the consent page (no PKCE,
 * `prompt=none`, an unknown scope or resource…) are shown on this origin instead of being
 * redirected to the client: the client may be anyone's registration, and a redirect nobody clicked
 * would make this server an open redirector (RFC 9700 §4.11.2). Once the person has approved or
 * denied (the `resume` route), the answer goes back to the app as usual. oidc-provider emits the
 * error before deciding where to send it, and sends it to the client only while `allow_redirect`
 * holds.
 */
export function keepErrorsBeforeConsentOnOrigin(provider: Provider): void {
  const keep = (ctx: KoaContextWithOIDC, error: unknown) => {
    if (ctx.oidc?.route !== "authorization" || typeof error !== "object" || error === null) return;
    (error as { allow_redirect?: boolean }).allow_redirect = false;
    // prompt=none's refusals carry 303, the status of the redirect they were meant for.
    if (ctx.status < 400) ctx.status = 400;
  };
  provider.on("authorization.error", keep);
  provider.on("server_error", keep);
}
