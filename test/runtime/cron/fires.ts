// The next fire times of an expression, one after another, as the tests compare them.
import { CronExpression } from "../../../runtime/cron/index.js";

/** The next `count` fire times after `from`, read in `zone`, as UTC ISO strings without zero milliseconds. */
export function fires(expression: string, from: string, count = 4, zone = "UTC"): string[] {
  const cron = CronExpression.parse(expression);
  const out: string[] = [];
  let after = new Date(from);
  for (let i = 0; i < count; i++) {
    const next = cron.next(after, zone);
    if (next === null) break;
    out.push(next.toISOString().replace(".000Z", "Z"));
    after = next;
  }
  return out;
}
