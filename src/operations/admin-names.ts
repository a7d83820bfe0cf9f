import { NameViolationsSchema } from "../contracts/admin";
import { z } from "../contracts/zod";
import { defineOperation } from "./operation";

export const adminCheckNames = defineOperation({
  name: "adminCheckNames",
  summary: "Find names that break the grammars",
  description:
    "Skills, skill files (`kind: skillFile`, `name` the file's path, `skill` its skill) and data sources, in every workspace, whose stored name or path the import would now refuse (they were stored before the grammars existed). " +
    "They are reported, not changed: re-import them under a valid name.",
  access: { kind: "admin" },
  input: z.object({}),
  output: NameViolationsSchema,
  run: (_input, { services }) => services.names.findViolations(),
  toWire: (violations) => ({ items: violations }),
});
