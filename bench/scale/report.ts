// Markdown tables and the figures' formats.

export const table = (headers: string[], rows: string[][]): string =>
  [headers, headers.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");

export const ms = (value: number) => (Number.isNaN(value) ? "–" : value >= 100 ? `${value.toFixed(0)} ms` : `${value.toFixed(1)} ms`);
export const ratio = (value: number) => `${value.toFixed(2)}×`;
export const thousands = (value: number) => value.toLocaleString("en-US");
export const seconds = (valueMs: number) => `${(valueMs / 1000).toFixed(1)} s`;
export const bytes = (value: number) => (value >= 1024 ** 3 ? `${(value / 1024 ** 3).toFixed(2)} GB` : `${(value / 1024 ** 2).toFixed(1)} MB`);

/** A target checked: its ✔/✘, and its outcome counted for the run's summary. */
export class Targets {
  private met = 0;
  private missed: string[] = [];

  check(name: string, ok: boolean): string {
    if (ok) this.met++;
    else this.missed.push(name);
    return ok ? "✔" : "✘";
  }

  summary(): string {
    const total = this.met + this.missed.length;
    return this.missed.length === 0 ? `All ${total} targets met.` : `${this.met} of ${total} targets met; missed: ${this.missed.join("; ")}.`;
  }
}
