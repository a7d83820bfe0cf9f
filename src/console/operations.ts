import type { Request } from "express";
import type { z } from "zod";
import { describeIssueAt, formatPath } from "../contracts/issues";
import { badRequest } from "../http/api-error";
import { answer, type Operation } from "../operations/operation";
import type { Services } from "../services";

type AnyObject = z.ZodObject<z.ZodRawShape>;
type AdminOperation<I extends AnyObject, O extends z.ZodType, R> = Operation<{ kind: "admin" }, I, O, R>;
/** Untrusted values under the input's own field names. */
type Given<I extends AnyObject> = { [K in keyof z.input<I>]?: unknown };

/**
 * What a page or form gave, as the operation's input, or the first problem as a sentence. The
 * operation's input schema is the one rule: a form fills only the body of the operation (the
 * workspace and ids come from the page), so a problem inside the body names the form's own field.
 */
export function parseInput<I extends AnyObject, O extends z.ZodType, R>(
  operation: AdminOperation<I, O, R>,
  given: Given<I>,
): { ok: true; input: z.output<I> } | { ok: false; problem: string } {
  const parsed = operation.input.safeParse(given, { reportInput: true });
  if (parsed.success) return { ok: true, input: parsed.data };
  const issue = parsed.error.issues[0]!;
  return { ok: false, problem: describeIssueAt(issue, formatPath(undefined, issue.path.length > 1 ? issue.path.slice(1) : issue.path)) };
}

/** The operation's input, or 400 with the problem. */
export function inputOf<I extends AnyObject, O extends z.ZodType, R>(operation: AdminOperation<I, O, R>, given: Given<I>): z.output<I> {
  const parsed = parseInput(operation, given);
  if (!parsed.ok) throw badRequest(parsed.problem);
  return parsed.input;
}

/**
 * Runs an admin operation for a signed-in reviewer: the caller has checked that the workspace it
 * names is one of theirs, which is all the authority the console adds.
 */
export function runOperation<I extends AnyObject, O extends z.ZodType, R>(
  operation: AdminOperation<I, O, R>,
  input: z.output<I>,
  services: Services,
  req: Request,
) {
  return answer(operation, input, { principal: undefined, services, baseUrl: `${req.protocol}://${req.get("host")}` });
}
