// The rules table of grammar/TOOLS.md, rendered from compiler/diff/rules.ts.
import { rules } from "../../compiler/diff/rules.js";

export const RULES_BEGIN = "<!-- rules:begin (generated from compiler/diff/rules.ts; refresh with UPDATE_GOLDEN=1) -->";
export const RULES_END = "<!-- rules:end -->";

export function renderRulesTable(): string {
  const rows = Object.entries(rules).map(([id, rule]) => `| \`${id}\` | ${rule.category} | ${rule.summary} |`);
  return [RULES_BEGIN, "| Rule | Category | Meaning |", "| --- | --- | --- |", ...rows, RULES_END].join("\n");
}
