import { SCOPES } from "../../auth/scopes";
import type { ApiKeyRecord } from "../../services/api-key.service";
import type { ConnectedAppRecord } from "../../services/connected-app.service";
import { html } from "../html";
import { age, isoTime } from "./format";
import { layout, type PageChrome } from "./layout";

export interface KeysView {
  workspace: { id: string; name: string };
  keys: ApiKeyRecord[];
  /** OAuth grants of MCP connectors, listed beside the keys. */
  apps: ConnectedAppRecord[];
  now: Date;
  /** A key just created: its secret, shown this once. */
  created?: { name: string; key: string };
  notice?: string;
  error?: string;
}

const when = (date: Date | null, now: Date) =>
  date ? html`<time datetime="${isoTime(date)}" title="${isoTime(date)}">${age(date, now)}</time>` : html`<span class="muted">never</span>`;

export function keysPage(chrome: PageChrome & { csrfToken: string }, view: KeysView) {
  const { workspace } = view;
  return layout(
    `API keys · ${workspace.name}`,
    chrome,
    html`<div class="page-head"><h1>API keys <span class="muted">· ${workspace.name}</span></h1></div>
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ""}
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ""}
${view.created
  ? html`<section class="card secret" data-section="new-key">
  <h2>Key “${view.created.name}” created</h2>
  <p>Copy the secret now: it is shown this once, and only its hash is stored.</p>
  <div class="copy-row"><input id="new-secret" class="mono" readonly value="${view.created.key}" aria-label="API key secret">
  <button type="button" data-copy="#new-secret">Copy</button></div>
</section>`
  : ""}
<table class="keys" data-keys>
  <thead><tr><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"></th></tr></thead>
  <tbody>${view.keys.map(
    (key) => html`<tr data-key-id="${key.id}">
    <td>${key.name}</td>
    <td>${key.scopes.length === 0 ? html`<span class="muted">all</span>` : html`<ul class="scopes">${key.scopes.map((s) => html`<li><code>${s}</code></li>`)}</ul>`}</td>
    <td>${when(key.createdAt, view.now)}</td>
    <td>${when(key.lastUsedAt, view.now)}</td>
    <td>${key.revokedAt ? html`<span class="pill status-disputed">revoked</span> ${when(key.revokedAt, view.now)}` : html`<span class="pill status-validated">active</span>`}</td>
    <td>${key.revokedAt
      ? ""
      : html`<form method="post" action="/console/keys/${key.id}/revoke" data-confirm="Revoke the key “${key.name}”? Agents using it get 401 at once.">
        <input type="hidden" name="_csrf" value="${chrome.csrfToken}"><input type="hidden" name="workspace" value="${workspace.id}">
        <button type="submit" class="danger small">Revoke</button></form>`}</td>
  </tr>`,
  )}</tbody>
</table>
<h2>Connected apps</h2>
<p class="muted small">MCP connectors someone approved through “Connect” (OAuth). They read with the scopes shown, never write.</p>
${view.apps.length === 0
  ? html`<p class="muted" data-connected-apps-empty>No app is connected.</p>`
  : html`<table class="keys" data-connected-apps>
  <thead><tr><th scope="col">App</th><th scope="col">Granted by</th><th scope="col">Scopes</th><th scope="col">Connected</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"></th></tr></thead>
  <tbody>${view.apps.map(
    (app) => html`<tr data-app-id="${app.id}">
    <td><bdi>${app.clientName}</bdi><br><span class="muted small">→ ${app.redirectHost}</span></td>
    <td>${app.grantedBy}</td>
    <td><ul class="scopes">${app.scopes.map((s) => html`<li><code>${s}</code></li>`)}</ul></td>
    <td>${when(app.createdAt, view.now)}</td>
    <td>${when(app.lastUsedAt, view.now)}</td>
    <td>${app.revokedAt ? html`<span class="pill status-disputed">revoked</span> ${when(app.revokedAt, view.now)}` : html`<span class="pill status-validated">active</span>`}</td>
    <td>${app.revokedAt
      ? ""
      : html`<form method="post" action="/console/connected-apps/${app.id}/revoke" data-confirm="Disconnect “${app.clientName}”? Its tokens get 401 at once.">
        <input type="hidden" name="_csrf" value="${chrome.csrfToken}"><input type="hidden" name="workspace" value="${workspace.id}">
        <button type="submit" class="danger small">Revoke</button></form>`}</td>
  </tr>`,
  )}</tbody>
</table>`}
<section class="card" data-section="create-key">
  <h2>Create a key</h2>
  <form method="post" action="/console/keys" class="stack">
    <input type="hidden" name="_csrf" value="${chrome.csrfToken}"><input type="hidden" name="workspace" value="${workspace.id}">
    <label>Name <span class="muted small">(reported as “pushed by” in the queue and feedback)</span><input name="name" required maxlength="200"></label>
    <fieldset><legend>Scopes <span class="muted small">(none ticked: all)</span></legend>
      ${SCOPES.map((scope) => html`<label class="check"><input type="checkbox" name="scopes" value="${scope}"> <code>${scope}</code></label>`)}
    </fieldset>
    <button type="submit" class="primary">Create key</button>
  </form>
</section>`,
  );
}
