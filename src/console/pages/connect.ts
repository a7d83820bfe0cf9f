import { html } from "../html";
import { layout, type PageChrome } from "./layout";

export interface ConsentView {
  uid: string;
  clientName: string;
  clientId: string;
  /** The redirect URI's host when it is https, the whole URI otherwise. */
  returnAddress: string;
  workspaces: Array<{ id: string; name: string }>;
  /** The read scopes offered, what each lets the app read, and whether each is ticked to begin with. */
  scopes: Array<{ scope: string; description: string; checked: boolean }>;
  /** Asked for but never granted here (artifacts:write, unknown names). */
  refused: string[];
  error?: string;
}

/** The consent page: which app, where it sends the person back, which workspace and scopes. */
export function consentPage(chrome: PageChrome & { csrfToken: string }, view: ConsentView) {
  return layout(
    `Connect ${view.clientName}`,
    chrome,
    html`<section class="card narrow" data-section="consent">
  <h1>Connect “<bdi>${view.clientName}</bdi>”?</h1>
  <p>The app will read the workspace you choose, with the scopes you tick, until you revoke it under API keys → Connected apps. It can never push or change anything.</p>
  <dl class="facts">
    <dt>App</dt><dd><bdi>${view.clientName}</bdi>${view.clientName !== view.clientId ? html` <span class="muted small mono"><bdi>${view.clientId}</bdi></span>` : ""}</dd>
    <dt>Sends you back to</dt><dd><strong data-redirect-host>${view.returnAddress}</strong></dd>
  </dl>
  <p class="muted small">The app names itself; the address it sends you back to is what tells you who it is. Approve only if you started connecting it just now.</p>
  ${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ""}
  ${view.refused.length ? html`<p class="notice">Not granted here: ${view.refused.map((scope, i) => html`${i ? ", " : ""}<code>${scope}</code>`)}.</p>` : ""}
  <form method="post" action="/console/connect/${view.uid}" class="stack">
    <input type="hidden" name="_csrf" value="${chrome.csrfToken}">
    <label>Workspace <select name="workspace" required>${view.workspaces.map((w) => html`<option value="${w.id}">${w.name}</option>`)}</select></label>
    <fieldset class="scopes"><legend>What the app may read</legend>
      ${view.scopes.map(
        ({ scope, description, checked }) =>
          html`<label class="scope"><input type="checkbox" name="scopes" value="${scope}"${checked ? html` checked` : ""}><span><span data-scope-description>${description}</span> <code class="scope-id">${scope}</code></span></label>`,
      )}
    </fieldset>
    <div class="actions">
      <button type="submit" name="decision" value="approve" class="primary">Approve</button>
      <button type="submit" name="decision" value="deny">Deny</button>
    </div>
  </form>
</section>`,
  );
}

/**
 * A page that navigates to `target` on this origin by itself. Used twice: to repeat a cross-site
 * arrival as a same-site navigation (the SameSite=Strict session cookie is then sent), and to leave
 * an approved form for the authorization endpoint by navigation rather than by the form's redirect
 * (CSP form-action 'self' would stop a redirect to the app's origin).
 */
export function continuePage(chrome: PageChrome, title: string, message: string, target: string) {
  return layout(
    title,
    chrome,
    html`<meta http-equiv="refresh" content="0;url=${target}">
<section class="card narrow" data-section="continue"><h1>${title}</h1><p>${message}</p><p><a href="${target}" data-continue>Continue</a></p></section>`,
  );
}
