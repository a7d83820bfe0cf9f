import { z } from "zod";
import { MAX_DISPUTE_REASON_LENGTH } from "../../contracts/admin";
import type { ArtifactRecord, ArtifactSummaryRecord } from "../../services/artifact.service";
import { html, type SafeHtml } from "../html";
import { dataSourceBadges, renderBody } from "../render-body";
import { age, confidenceLevel, isoTime, percent } from "./format";
import { layout, type PageChrome } from "./layout";
import { statusPill } from "./queue";

// Stored JSON columns, read defensively: imported and pushed rows were validated on the way in,
// but a page must not fail on one odd row.
const listOf = <T extends z.ZodType>(item: T) => (value: unknown): Array<z.output<T>> => {
  const parsed = z.array(item).safeParse(value);
  return parsed.success ? parsed.data : [];
};
const findingsOf = listOf(z.string());
const recommendationsOf = listOf(z.object({ text: z.string(), type: z.string() }));
const sourcesOf = listOf(z.object({ name: z.string(), type: z.string() }));
const codeOf = listOf(
  z.object({ language: z.string(), code: z.string(), output: z.string().optional(), title: z.string().optional(), toolName: z.string().optional() }),
);

export interface ArtifactView {
  artifact: ArtifactRecord;
  similar: Array<ArtifactSummaryRecord & { score: number }>;
  /** Neighbours in the queue the reviewer came from, for j/k. */
  previousHref?: string;
  nextHref?: string;
  queueHref: string;
  position?: { index: number; total: number };
  /** The queue's filters, carried through the review forms so the next draft follows. */
  queueQuery: string;
  now: Date;
  notice?: string;
  error?: string;
}

const RECOMMENDATION_GROUPS: Array<[string, string]> = [
  ["warning", "Warnings"],
  ["recommendation", "Recommendations"],
  ["info", "Notes"],
];

function recommendations(artifact: ArtifactRecord): SafeHtml {
  const items = recommendationsOf(artifact.recommendations);
  if (artifact.recommendation) items.unshift({ text: artifact.recommendation, type: "recommendation" });
  if (items.length === 0) return html``;
  const known = new Set(RECOMMENDATION_GROUPS.map(([type]) => type));
  const groups = [...RECOMMENDATION_GROUPS, ...[...new Set(items.map((i) => i.type))].filter((t) => !known.has(t)).map((t) => [t, t] as [string, string])];
  return html`<section class="recommendations" data-section="recommendations"><h2>Recommendations</h2>${groups.map(([type, label]) => {
    const group = items.filter((item) => item.type === type);
    return group.length === 0
      ? ""
      : html`<div class="callout callout-${known.has(type) ? type : "info"}"><strong>${label}</strong><ul>${group.map((item) => html`<li>${item.text}</li>`)}</ul></div>`;
  })}</section>`;
}

function reviewActions(view: ArtifactView, csrfToken: string): SafeHtml {
  const { artifact } = view;
  if (artifact.status === "validated") {
    return html`<p class="outcome status-validated">Validated by ${artifact.validatedBy ?? "someone"}${artifact.validatedAt ? html` on <time datetime="${isoTime(artifact.validatedAt)}">${isoTime(artifact.validatedAt)}</time>` : ""}.</p>`;
  }
  if (artifact.status === "disputed") {
    return html`<p class="outcome status-disputed">Disputed: ${artifact.disputeReason ?? ""}</p>`;
  }
  return html`<form method="post" action="/console/artifacts/${artifact.id}/validate" id="validate-form">
    <input type="hidden" name="_csrf" value="${csrfToken}"><input type="hidden" name="queue" value="${view.queueQuery}">
    <button type="submit" class="primary validate">Validate <kbd>v</kbd></button>
  </form>
  <form method="post" action="/console/artifacts/${artifact.id}/dispute" id="dispute-form" class="stack">
    <input type="hidden" name="_csrf" value="${csrfToken}"><input type="hidden" name="queue" value="${view.queueQuery}">
    <label for="dispute-reason">Reason for disputing <span class="muted small">(shown to the agent)</span></label>
    <textarea id="dispute-reason" name="reason" rows="3" required maxlength="${MAX_DISPUTE_REASON_LENGTH}" placeholder="e.g. wrong date range: Q3 ends in September"></textarea>
    <button type="submit" class="danger dispute">Dispute <kbd>d</kbd></button>
  </form>`;
}

/** Deleting, for any status: confirmed in the browser, like revoking a key (docs/console.md). */
function deleteAction(view: ArtifactView, csrfToken: string): SafeHtml {
  const { artifact } = view;
  return html`<section class="danger-zone card" data-section="delete"><h2>Delete</h2>
  <p class="muted small">Removes the artifact for good, with its search entries and memory: agents no longer find it, and feedback no longer lists it.</p>
  <form method="post" action="/console/artifacts/${artifact.id}/delete" id="delete-form" data-confirm="Delete “${artifact.summary.slice(0, 80)}” for good? It cannot be undone.">
    <input type="hidden" name="_csrf" value="${csrfToken}"><input type="hidden" name="queue" value="${view.queueQuery}">
    <button type="submit" class="danger small">Delete artifact</button>
  </form></section>`;
}

function similarPanel(view: ArtifactView): SafeHtml {
  return html`<section class="similar" data-section="similar"><h2>Most similar validated</h2>${view.similar.length === 0
    ? html`<p class="muted small">No validated artifact of this workspace is close.</p>`
    : html`<ol>${view.similar.map(
        (item) => html`<li><a href="/console/artifacts/${item.id}">${item.summary}</a>
        <div class="muted small">score ${item.score.toFixed(2)} · ${percent(item.confidence)} confidence${item.validatedBy ? html` · by ${item.validatedBy}` : ""}</div></li>`,
      )}</ol>`}</section>`;
}

export function artifactPage(chrome: PageChrome & { csrfToken: string }, view: ArtifactView) {
  const { artifact } = view;
  const findings = findingsOf(artifact.keyFindings);
  const sources = sourcesOf(artifact.dataSources);
  const code = codeOf(artifact.codeExecuted);
  const body = renderBody(artifact.content);
  return layout(
    artifact.summary.slice(0, 80),
    chrome,
    html`<nav class="crumbs" data-artifact-nav>
  <a href="${view.queueHref}" data-shortcut="u">← Queue</a>
  ${view.position ? html`<span class="muted">${view.position.index} of ${view.position.total}</span>` : ""}
  ${view.previousHref ? html`<a href="${view.previousHref}" rel="prev" data-shortcut="k">Previous <kbd>k</kbd></a>` : ""}
  ${view.nextHref ? html`<a href="${view.nextHref}" rel="next" data-shortcut="j">Next <kbd>j</kbd></a>` : ""}
</nav>
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : ""}
${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ""}
<div class="artifact-layout">
<article class="artifact" data-status="${artifact.status}">
  <header>
    <p class="meta">${statusPill(artifact.status)} Pushed by <strong>${artifact.createdBy}</strong>
      · <time datetime="${isoTime(artifact.createdAt)}" title="${isoTime(artifact.createdAt)}">${age(artifact.createdAt, view.now)}</time>
      ${artifact.sourceSystem ? html`· from ${artifact.sourceSystem}` : ""}</p>
    <h1 data-field="summary">${artifact.summary}</h1>
  </header>
  <section data-section="why"><h2>Why it matters</h2><p>${artifact.why}</p></section>
  <section class="confidence-block" data-section="confidence"><h2>Confidence <span class="confidence confidence-${confidenceLevel(artifact.confidence)}">${percent(artifact.confidence)}</span></h2>
    <meter min="0" max="1" low="0.5" high="0.75" optimum="1" value="${artifact.confidence}">${percent(artifact.confidence)}</meter>
    <p>${artifact.confidenceExplanation}</p></section>
  ${findings.length ? html`<section data-section="findings"><h2>Key findings</h2><ul class="findings">${findings.map((f) => html`<li>${f}</li>`)}</ul></section>` : ""}
  ${recommendations(artifact)}
  ${sources.length ? html`<section data-section="data-sources"><h2>Data sources</h2>${dataSourceBadges(sources)}</section>` : ""}
  ${body.kind === "none"
    ? ""
    : html`<section class="content" data-section="body"><h2>Body</h2>
      <p class="muted small"><a href="/console/artifacts/${artifact.id}/content.json" data-link="content-json">Full content as JSON</a></p>${body.html}</section>`}
  ${code.length
    ? html`<details class="code-executed" data-section="code"><summary>Code executed (${code.length})</summary>${code.map(
        (c) => html`<div class="code-item"><h4>${c.title ?? c.toolName ?? c.language} <span class="badge-type">${c.language}</span></h4>
        <pre><code>${c.code}</code></pre>${c.output ? html`<p class="muted small">Output</p><pre class="output"><code>${c.output}</code></pre>` : ""}</div>`,
      )}</details>`
    : ""}
</article>
<aside class="side">
  <section class="review card" data-section="review"><h2>Review</h2>${reviewActions(view, chrome.csrfToken)}</section>
  ${artifact.status === "draft" ? similarPanel(view) : ""}
  ${deleteAction(view, chrome.csrfToken)}
</aside>
</div>`,
  );
}
