/** A real 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

export const SKILL_MD = "---\nname: churn-analysis\ndescription: Churn by plan.\n---\n\n# Churn analysis — étapes\n";

/** A skill with a markdown file, a script and a binary, as the import document takes it. */
export function churnSkill(overrides: Record<string, unknown> = {}) {
  return {
    name: "churn-analysis",
    description: "Churn by plan.",
    source: "authored" as const,
    files: [
      { path: "SKILL.md", content: SKILL_MD },
      { path: "scripts/cohorts.py", content: "print('cohorts')\n" },
      { path: "assets/curve.png", contentBase64: TINY_PNG.toString("base64") },
    ],
    ...overrides,
  };
}
