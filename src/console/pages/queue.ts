import type { ArtifactStatus } from "../../generated/prisma/client";
import type { ApiKeyRecord } from "../../services/api-key.service";
import type { QueueEntry } from "../../services/review.service";
import { showsNothing } from "../../lib/visible-text";
import { html } from "../html";
import { age, confidenceLevel, isoTime, percent } from "./format";
import { layout, type PageChrome } from "./layout";

export type StatusFilter = ArtifactStatus | "all";

export interface QueueView {
  workspace: { id: string; name: string };
  status: StatusFilter;
  keyId?: string;
  keys: ApiKeyRecord[];
  counts: Record<ArtifactStatus, number>;
  entries: QueueEntry[];
  limit: number;
  now: Date;
  notice?: string;
}

const STATUS_TABS: Array<[StatusFilter, string]> = [
  ["draft", "Drafts"],
  ["validated", "Validated"],
  ["disputed", "Disputed"],
  ["all", "All"],
];

/** The query string that keeps the queue's filters, for links into artifacts and back. */
export function queueQuery(view: { workspaceId: string; status: StatusFilter; keyId?: string }): string {
  const params = new URLSearchParams({ workspace: view.workspaceId, status: view.status });
  if (view.keyId) params.set("key", view.keyId);
  return params.toString();
}

/** A push may carry a summary that shows nothing (empty, blanks, zero-width characters); the row still needs visible text, or its link cannot be clicked. */
function summaryText(summary: string) {
  return showsNothing(summary) ? html`<span class="muted">(no summary)</span>` : summary;
}

export function statusPill(status: ArtifactStatus) {
  return html`<span class="pill status-${status}">${status}</span>`;
}

export function queuePage(chrome: PageChrome, view: QueueView) {
  const { workspace, counts } = view;
  const total = counts.draft + counts.validated + counts.disputed;
  const countOf = (status: StatusFilter) => (status === "all" ? total : counts[status]);
  const here = (status: StatusFilter) => queueQuery({ workspaceId: workspace.id, status, keyId: view.keyId });
  const linkQuery = queueQuery({ workspaceId: workspace.id, status: view.status, keyId: view.keyId });
  return layout(
    `Queue · ${workspace.name}`,
    chrome,
    html`<div class="page-head">
  <h1>Review queue <span class="muted">· ${workspace.name}</span></h1>
  <form method="get" action="/console" class="filters">
    <input type="hidden" name="workspace" value="${workspace.id}">
    <input type="hidden" name="status" value="${view.status}">
    <label>Pushed by
      <select name="key" data-autosubmit>
        <option value="">any key</option>
        ${view.keys.map((key) => html`<option value="${key.id}"${key.id === view.keyId ? html` selected` : ""}>${key.name}${key.revokedAt ? " (revoked)" : ""}</option>`)}
      </select>
    </label>
    <noscript><button type="submit">Filter</button></noscript>
  </form>
</div>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ""}
<nav class="status-tabs" aria-label="Status">${STATUS_TABS.map(
      ([status, label]) =>
        html`<a href="/console?${here(status)}"${status === view.status ? html` aria-current="page"` : ""}>${label} <span class="count">${countOf(status)}</span></a>`,
    )}</nav>
${view.entries.length === 0
  ? html`<p class="empty">${view.status === "draft" ? "No drafts waiting for review. Well done." : "Nothing here."}</p>`
  : html`<table class="queue" data-queue>
  <thead><tr><th scope="col">Summary</th><th scope="col">Status</th><th scope="col">Pushed by</th><th scope="col" class="num">Confidence</th><th scope="col">Age</th></tr></thead>
  <tbody>${view.entries.map(
    (entry) => html`<tr data-href="/console/artifacts/${entry.id}?${linkQuery}">
    <td class="summary-cell"><a href="/console/artifacts/${entry.id}?${linkQuery}">${summaryText(entry.summary)}</a>${entry.disputeReason ? html`<div class="muted small">Disputed: ${entry.disputeReason}</div>` : ""}</td>
    <td>${statusPill(entry.status)}</td>
    <td>${entry.createdBy}${entry.trigger === "chat" ? html` <span class="muted small">(in product)</span>` : ""}</td>
    <td class="num"><span class="confidence confidence-${confidenceLevel(entry.confidence)}">${percent(entry.confidence)}</span></td>
    <td><time datetime="${isoTime(entry.createdAt)}" title="${isoTime(entry.createdAt)}">${age(entry.createdAt, view.now)}</time></td>
  </tr>`,
  )}</tbody>
</table>
${view.entries.length >= view.limit ? html`<p class="muted small">Showing the newest ${view.limit}.</p>` : ""}`}`,
  );
}
