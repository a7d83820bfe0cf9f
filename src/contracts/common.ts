import { z } from "./zod";

export const ErrorSchema = z
  .object({
    error: z.string().openapi({ description: "What was wrong, naming the field or parameter." }),
    code: z
      .string()
      .optional()
      .openapi({ description: "Stable machine-readable error code, e.g. `bad_request`, `not_found`." }),
  })
  .openapi("Error");

/** Integer milliseconds since the Unix epoch. */
export const Timestamp = z.number().int().openapi({ description: "Milliseconds since the Unix epoch (UTC).", example: 1763596800000 });

/**
 * A timestamp a client may send: years 1 to 9999, which JavaScript dates and PostgreSQL's
 * timestamptz both hold (either alone would accept values the other refuses).
 */
const STORABLE_TIME = { min: -62_135_596_800_000, max: 253_402_300_799_999, problem: "must be a time from year 1 to year 9999" };
export const StorableTimestamp = z
  .number({ error: STORABLE_TIME.problem })
  .int({ error: STORABLE_TIME.problem })
  .min(STORABLE_TIME.min, { error: STORABLE_TIME.problem })
  .max(STORABLE_TIME.max, { error: STORABLE_TIME.problem })
  .openapi({ description: "Milliseconds since the Unix epoch (UTC), from year 1 to year 9999.", example: 1763596800000 });

/** Whether milliseconds since the epoch fall in the range of StorableTimestamp. */
export const isStorableTime = (ms: number) => ms >= STORABLE_TIME.min && ms <= STORABLE_TIME.max;

/** A non-empty string; what the contract calls "minimum length 1". */
export const NonEmptyString = z.string().min(1);

/**
 * A non-empty string of at most `max` characters (text-limits.ts). The sentences are the
 * schema's own, not Zod's defaults: the MCP adapter reports an argument's issue as Zod words it,
 * and REST rewords Zod's defaults, so only a sentence of the schema reads the same in both.
 */
export function boundedString(max: number) {
  return z
    .string()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` });
}

const PLAIN_DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * A number that also accepts its plain decimal text ("0.75"). Blank strings, "NaN", "Infinity", hex
 * and booleans stay invalid instead of being coerced to 0 or 1 as `z.coerce.number()` would.
 */
export function numberFromDecimalText<T extends z.ZodNumber>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === "string" && PLAIN_DECIMAL.test(value) ? Number(value) : value),
    schema,
  );
}

const INTEGER_TEXT = /^[+-]?\d+$/;

/**
 * An optional time query parameter, in the unit of every timestamp of the contract: integer
 * milliseconds since the Unix epoch, given as text (`createdAfter=1763596800000`), within
 * StorableTimestamp's range. An ISO 8601 date is refused rather than guessed at.
 */
export function timestampQueryParam(description: string) {
  const problem = "must be an integer number of milliseconds since the Unix epoch (UTC), e.g. 1763596800000, from year 1 to year 9999";
  return z
    .preprocess(
      (value) => (typeof value === "string" && INTEGER_TEXT.test(value.trim()) ? Number(value) : value),
      z
        .number({ error: problem })
        .int({ error: problem })
        .min(STORABLE_TIME.min, { error: problem })
        .max(STORABLE_TIME.max, { error: problem }),
    )
    .optional()
    .openapi({ type: "integer", minimum: STORABLE_TIME.min, maximum: STORABLE_TIME.max, description, example: 1763596800000 });
}

/** An integer query parameter given as text, within [min, max], with a default when absent. */
export function integerQueryParam(options: { min: number; max: number; default: number; description: string }) {
  return z
    .preprocess(
      (value) => (typeof value === "string" && INTEGER_TEXT.test(value.trim()) ? Number(value) : value),
      z
        .number({ error: `must be an integer from ${options.min} to ${options.max}` })
        .int({ error: `must be an integer from ${options.min} to ${options.max}` })
        .min(options.min, { error: `must be an integer from ${options.min} to ${options.max}` })
        .max(options.max, { error: `must be an integer from ${options.min} to ${options.max}` })
        .default(options.default),
    )
    .openapi({
      type: "integer",
      minimum: options.min,
      maximum: options.max,
      default: options.default,
      description: options.description,
    });
}
