// One classified change between two manifests.
import type { Category, RuleId } from "./rules.js";

export interface Change {
  readonly rule: RuleId;
  readonly category: Category;
  readonly context: string;
  /** What changed, qualified: `eshop-order.Order.CreateOrder.items`, `eshop-inventory.receive-deliveries`. */
  readonly element: string;
  readonly message: string;
  /** `file:line` of the element (in the new sources; in the old ones when it was removed). */
  readonly source?: string;
  /** Whether `source` is in the previous sources (a removal) or the current ones. */
  readonly side: "previous" | "current";
  /** Accepted by `--accept`, `wowc.diff.json` or `--allow-breaking`. */
  readonly accepted: boolean;
}

/** The key a team writes to accept a change: `RULE:element` (`FIELD_SAME_TYPE:eshop-order.Order.PayOrder.amount`). */
export function acceptKey(change: Pick<Change, "rule" | "element">): string {
  return `${change.rule}:${change.element}`;
}
