import { realisticQuestion } from "../../tests/support/realistic-workspace";

// The question stream (tests/support/realistic-workspace.ts, realisticQuestion): the service and
// the search floor are each asked the stream from its start, question 0, in order: the
// 1-connection figure first, the 32-connection figure from where that one stopped. So both see
// the same questions in the same order, with the stream's repeats (one in five asks an earlier
// question again) where the stream puts them; a faster server gets further along it. Warm-ups
// ask questions from WARMUP_QUESTIONS on, outside the measured stream.

export const WARMUP_QUESTIONS = 5_000_000;

/** The questions the search floor measures its index's recall on (search-floor.ts): outside the measured stream and the warm-ups. */
export const FLOOR_RECALL_QUESTIONS = 7_000_000;

/** Of the questions asked over these ranges of the stream, in order, how many had been asked before in them. */
export function repeatRate(ranges: Array<[number, number]>): { asked: number; repeated: number; rate: number } {
  const seen = new Set<string>();
  let asked = 0;
  let repeated = 0;
  for (const [from, to] of ranges) {
    for (let n = from; n < to; n++) {
      const question = realisticQuestion(n);
      asked++;
      if (seen.has(question)) repeated++;
      else seen.add(question);
    }
  }
  return { asked, repeated, rate: asked > 0 ? repeated / asked : 0 };
}

export const describeRepeats = ({ asked, repeated, rate }: ReturnType<typeof repeatRate>) => `${asked} questions, ${repeated} asked before (${(rate * 100).toFixed(1)}%)`;
