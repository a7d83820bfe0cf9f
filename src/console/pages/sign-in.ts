import { html } from "../html";
import { layout } from "./layout";

export function signInPage(options: { csrfToken: string; email?: string; error?: string; notice?: string; next?: string }) {
  return layout(
    "Sign in",
    {},
    html`<section class="card narrow">
  <h1>Sign in</h1>
  ${options.next?.startsWith("/console/connect/")
    ? html`<p class="muted">An app asked to read one of your workspaces. Sign in with your review console account to see what it asks for and decide.</p>`
    : html`<p class="muted">Review drafts pushed by agents before they become shared truth.</p>`}
  ${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ""}
  ${options.error ? html`<p class="error" role="alert">${options.error}</p>` : ""}
  <form method="post" action="/console/sign-in" class="stack">
    <input type="hidden" name="_csrf" value="${options.csrfToken}">
    ${options.next ? html`<input type="hidden" name="next" value="${options.next}">` : ""}
    <label>Email <input type="email" name="email" autocomplete="username" required autofocus value="${options.email ?? ""}"></label>
    <label>Password <input type="password" name="password" autocomplete="current-password" required></label>
    <button type="submit" class="primary">Sign in</button>
  </form>
</section>`,
  );
}
