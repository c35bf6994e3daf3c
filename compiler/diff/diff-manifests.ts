// `wowc diff` as a function: the classified, ordered changes between two manifests, with the
// accepted ones marked. Order: breaking, behaviour, safe; then context, element and rule.
import type { Manifest } from "../manifest/types.js";
import { acceptKey, type Change } from "./change.js";
import { compareManifests, type SidePositions } from "./compare.js";
import { categoryOrder } from "./rules.js";

export interface DiffOptions {
  /** `RULE:element` keys (or `RULE:*`) of breaking changes a team has approved. */
  readonly accept?: readonly string[];
  /** Where each side's elements are declared: the changes' `source`. */
  readonly positions?: SidePositions;
}

export interface DiffResult {
  readonly changes: readonly Change[];
  /** Breaking changes that are not accepted: they make `wowc diff` exit 1. */
  readonly unaccepted: number;
  /** The accept keys that match no change (stale, or a typo in the element). */
  readonly unmatched: readonly string[];
}

export function diffManifests(previous: Manifest, current: Manifest, options: DiffOptions = {}): DiffResult {
  const accepted = new Set(options.accept ?? []);
  const changes = compareManifests(previous, current, options.positions)
    .map((c) => (accepted.has(acceptKey(c)) || accepted.has(`${c.rule}:*`) ? { ...c, accepted: true } : c))
    .sort(
      (a, b) =>
        categoryOrder.indexOf(a.category) - categoryOrder.indexOf(b.category) ||
        compare(a.context, b.context) ||
        compare(a.element, b.element) ||
        compare(a.rule, b.rule),
    );
  const matched = new Set(changes.flatMap((c) => [acceptKey(c), `${c.rule}:*`]));
  const unmatched = [...accepted].filter((key) => !matched.has(key));
  return { changes, unaccepted: changes.filter((c) => c.category === "breaking" && !c.accepted).length, unmatched };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
