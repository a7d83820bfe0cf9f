/** "3 min ago", "5 h ago", "12 d ago": ages as a reviewer scans them. */
export function age(then: Date, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  if (seconds < 60) return "just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

export const percent = (confidence: number) => `${Math.round(confidence * 100)}%`;

/** A CSS class for the confidence level; the colour never carries the meaning alone. */
export const confidenceLevel = (confidence: number) => (confidence >= 0.75 ? "high" : confidence >= 0.5 ? "medium" : "low");

export const isoTime = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");
