import { z } from "../../src/contracts/zod";
import { ArtifactDetailSchema } from "../../src/contracts/artifacts";
import { jsonAnswer } from "../../src/http/json-answer";
import { JsonText } from "../../src/lib/json-text";

// Answers are written by a serializer compiled from their contract schema, with stored JSON text
// spliced in unparsed; with checks on, each answer is also parsed through the schema.

const detail = {
  id: "art_1",
  summary: "Churn doubled",
  why: "Large accounts left",
  confidence: 0.8,
  confidenceExplanation: "14 months",
  dataSources: [{ type: "database", name: "warehouse" }],
  createdAt: 1763596800000,
  contentTruncated: false,
};

describe.each([true, false])("an answer (checks %s)", (check) => {
  it("holds only the schema's properties", () => {
    const text = jsonAnswer(ArtifactDetailSchema, { ...detail, workspaceId: "ws_secret", createdByKeyId: "key_1" }, { check });
    expect(JSON.parse(text)).toEqual(detail);
    expect(text).not.toContain("ws_secret");
  });

  it("writes stored JSON text as it is, key order and all, and its value where JSON.stringify writes it", () => {
    const stored = '{"root":"a","elements":{"a":{"type":"Markdown","props":{"content":"## Churn \\u2014 by region"}}},"__proto__":{"x":1}}';
    const body = { ...detail, content: new JsonText(stored) };
    const text = jsonAnswer(ArtifactDetailSchema, body, { check });
    expect(text).toContain(`"content":${stored}`);
    expect(JSON.parse(text).content).toEqual(JSON.parse(stored));
    expect(JSON.parse(JSON.stringify(body))).toEqual(JSON.parse(text));
  });

  it("is not confused by a string that looks like stored text", () => {
    const body = { ...detail, summary: '"content"', why: "wsi", content: new JsonText('"## a string body"') };
    expect(JSON.parse(jsonAnswer(ArtifactDetailSchema, body, { check }))).toMatchObject({ summary: '"content"', why: "wsi", content: "## a string body" });
  });
});

it("refuses, with checks on, an answer its schema refuses", () => {
  const Schema = z.object({ count: z.number().int() });
  expect(() => jsonAnswer(Schema, { count: "12" }, { check: true })).toThrow();
});
