import { html } from "../html";
import { layout, type PageChrome } from "./layout";

/** Error and notice pages: a heading, a sentence, and a way back. */
export function messagePage(chrome: PageChrome, title: string, message: string) {
  return layout(
    title,
    chrome,
    html`<section class="card narrow"><h1>${title}</h1><p>${message}</p><p><a href="/console">Back to the queue</a></p></section>`,
  );
}
