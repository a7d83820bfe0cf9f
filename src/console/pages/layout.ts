import { assetUrl } from "../assets-manifest";
import { html, type SafeHtml } from "../html";
import type { ReviewerPrincipal } from "../../services/reviewer.service";

export interface PageChrome {
  reviewer?: ReviewerPrincipal;
  csrfToken?: string;
  /** The workspace the page is about, for the header and the switcher. */
  workspaceId?: string;
  active?: "queue" | "keys";
}

function workspaceSwitcher(reviewer: ReviewerPrincipal, workspaceId: string | undefined, active: PageChrome["active"]): SafeHtml {
  const current = reviewer.workspaces.find((w) => w.id === workspaceId);
  if (reviewer.workspaces.length < 2) return html`<span class="workspace-name">${current?.name ?? ""}</span>`;
  return html`<form class="switcher" method="get" action="${active === "keys" ? "/console/keys" : "/console"}">
    <label class="visually-hidden" for="workspace-switcher">Workspace</label>
    <select id="workspace-switcher" name="workspace" data-autosubmit>${reviewer.workspaces.map(
      (w) => html`<option value="${w.id}"${w.id === workspaceId ? html` selected` : ""}>${w.name}</option>`,
    )}</select>
    <noscript><button type="submit">Switch</button></noscript>
  </form>`;
}

/** The page shell: header with workspace switcher and sign-out, the content, the shortcut help. */
export function layout(title: string, chrome: PageChrome, content: SafeHtml): SafeHtml {
  const { reviewer, workspaceId, active } = chrome;
  const query = workspaceId ? `?workspace=${encodeURIComponent(workspaceId)}` : "";
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${title} · Review console</title>
<link rel="icon" type="image/svg+xml" href="${assetUrl("favicon.svg")}">
<link rel="stylesheet" href="${assetUrl("console.css")}">
<script src="${assetUrl("console.js")}" defer></script>
</head>
<body>
<header class="top">
  <a class="brand" href="/console${query}">Review console</a>
  ${reviewer
    ? html`${workspaceSwitcher(reviewer, workspaceId, active)}
  <nav class="tabs">
    <a href="/console${query}"${active === "queue" ? html` aria-current="page"` : ""}>Queue</a>
    <a href="/console/keys${query}"${active === "keys" ? html` aria-current="page"` : ""}>API keys</a>
  </nav>
  <div class="who">
    <span title="${reviewer.email}">${reviewer.name}</span>
    <form method="post" action="/console/sign-out"><input type="hidden" name="_csrf" value="${chrome.csrfToken ?? ""}"><button class="link" type="submit">Sign out</button></form>
  </div>`
    : ""}
</header>
<main>
${content}
</main>
${reviewer
  ? html`<dialog id="shortcuts" class="shortcuts">
  <h2>Keyboard shortcuts</h2>
  <dl>
    <dt><kbd>j</kbd> / <kbd>k</kbd></dt><dd>Next / previous in the queue</dd>
    <dt><kbd>Enter</kbd></dt><dd>Open the selected artifact</dd>
    <dt><kbd>v</kbd></dt><dd>Validate the draft</dd>
    <dt><kbd>d</kbd></dt><dd>Dispute: write the reason, then <kbd>Ctrl</kbd>+<kbd>Enter</kbd></dd>
    <dt><kbd>u</kbd></dt><dd>Back to the queue</dd>
    <dt><kbd>?</kbd></dt><dd>This help; <kbd>Esc</kbd> closes it</dd>
  </dl>
  <form method="dialog"><button type="submit">Close</button></form>
</dialog>
<footer class="hint">Press <kbd>?</kbd> for keyboard shortcuts</footer>`
  : ""}
</body>
</html>`;
}
