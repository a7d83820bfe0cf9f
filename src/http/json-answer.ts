import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { isDeepStrictEqual } from "node:util";
import fastJson from "fast-json-stringify";
import { z } from "../contracts/zod";
import { JsonText } from "../lib/json-text";

// An answer's JSON text, written by a serializer compiled once from the route's response schema
// (fast-json-stringify): like parsing through the schema, it writes only the schema's properties,
// so internal fields can never leak, at a fraction of the cost of a Zod parse followed by
// JSON.stringify. With checks on (tests, `npm run dev`), every answer is also parsed through the
// schema and the two compared, so a serializer that coerced instead of refusing is caught there.

type Serialize = (value: unknown) => string;

const serializers = new WeakMap<z.ZodType, Serialize>();

function serializerOf(schema: z.ZodType): Serialize {
  let serialize = serializers.get(schema);
  if (!serialize) {
    try {
      serialize = fastJson(z.toJSONSchema(schema, { target: "draft-7", unrepresentable: "any", io: "output" }) as never) as Serialize;
    } catch {
      // A schema JSON Schema cannot say: parsed through it, then written as is.
      serialize = (value) => JSON.stringify(schema.parse(value));
    }
    serializers.set(schema, serialize);
  }
  return serialize;
}

// Stands for a JsonText while the rest of an answer is written: random per process, so that no
// string an agent pushed can be taken for it; plain letters, so that it is written unescaped.
const PLACEHOLDER = `wsi${randomBytes(16).toString("hex")}`;

/**
 * The JSON text of an answer that passes through `schema`. A JsonText among the answer's own
 * properties is written as its stored text, never parsed (a fetched artifact's content).
 */
export function jsonAnswer(schema: z.ZodType | undefined, body: unknown, { check }: { check: boolean }): string {
  if (check && schema) {
    const expected = JSON.parse(JSON.stringify(schema.parse(body))) as unknown;
    const text = write(schema, body);
    if (!isDeepStrictEqual(JSON.parse(text), expected)) throw new Error(`the answer's serializer wrote other JSON than its schema parses: ${text.slice(0, 200)}`);
    return text;
  }
  return write(schema, body);
}

function write(schema: z.ZodType | undefined, body: unknown): string {
  const stored = storedTexts(body);
  const text = schema ? serializerOf(schema)(stored?.written ?? body) : JSON.stringify(stored?.written ?? body);
  if (!stored) return text;
  let spliced = text;
  for (const [quoted, storedText] of stored.texts) spliced = spliced.replace(quoted, () => storedText);
  return spliced;
}

/**
 * The answer with each JsonText among its own properties replaced by a placeholder, and the
 * stored text of each (by its placeholder as written, quoted); undefined when it holds none,
 * which is checked without copying the answer.
 */
function storedTexts(body: unknown): { written: Record<string, unknown>; texts: Map<string, string> } | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  let stored: { written: Record<string, unknown>; texts: Map<string, string> } | undefined;
  // An answer is a plain object: its keys are its own.
  for (const key in body) {
    const value = (body as Record<string, unknown>)[key];
    if (!(value instanceof JsonText)) continue;
    stored ??= { written: { ...(body as Record<string, unknown>) }, texts: new Map() };
    const placeholder = `${PLACEHOLDER}${stored.texts.size}`;
    stored.texts.set(`"${placeholder}"`, value.text);
    stored.written[key] = placeholder;
  }
  return stored;
}

/**
 * Writes a JSON answer's text as it is: Express's `send` would copy a text over 1,000 characters
 * into a Buffer (then written apart from the headers) and parse the Content-Type again to add its
 * charset. Node leaves the body out of an answer to HEAD, with the same Content-Length.
 */
export function sendJsonText(res: ServerResponse, status: number, text: string | Buffer): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", typeof text === "string" ? Buffer.byteLength(text) : text.length);
  res.end(text);
}
