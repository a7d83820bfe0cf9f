/**
 * How failed sign-ins slow down the next attempt. A subject is an account ("account:<email>") or
 * a client address ("address:<ip>"). The first few failures cost nothing (typos); after that each
 * further attempt must wait twice as long as the one before, up to a cap. An address gets more
 * free failures than an account because many people can share one address.
 */
export const THROTTLE = {
  freeFailures: { account: 5, address: 20 },
  firstDelayMs: 1_000,
  maxDelayMs: 15 * 60_000,
  /** A subject with no failure for this long starts from zero again. */
  forgetAfterMs: 60 * 60_000,
} as const;

export type SubjectKind = keyof typeof THROTTLE.freeFailures;

export const subjectOf = (kind: SubjectKind, value: string) => `${kind}:${value}`;

/** Milliseconds the subject must still wait before its next attempt; 0 when it may try now. */
export function waitBeforeNextAttempt(kind: SubjectKind, failures: number, lastFailedAt: Date, now: Date): number {
  const sinceLast = now.getTime() - lastFailedAt.getTime();
  if (sinceLast >= THROTTLE.forgetAfterMs) return 0;
  const over = failures - THROTTLE.freeFailures[kind];
  if (over < 0) return 0;
  const delay = Math.min(THROTTLE.firstDelayMs * 2 ** over, THROTTLE.maxDelayMs);
  return Math.max(0, delay - sinceLast);
}
