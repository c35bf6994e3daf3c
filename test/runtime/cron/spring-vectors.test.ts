// Every case of Spring's own answers (fixtures/spring-vectors.json: what Spring's CronExpression tests expect).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CronExpression, CronSyntaxError } from "../../../runtime/cron/index.js";

interface FireCase {
  readonly expression: string;
  readonly zone: string;
  readonly from: string;
  readonly next: readonly string[];
}
interface InvalidCase {
  readonly expression: string;
  readonly invalid: true;
}
type Vector = FireCase | InvalidCase;

const vectors: readonly Vector[] = JSON.parse(readFileSync(new URL("./fixtures/spring-vectors.json", import.meta.url), "utf8"));
const fireCases = vectors.filter((v): v is FireCase => !("invalid" in v));
const invalidCases = vectors.filter((v): v is InvalidCase => "invalid" in v);

/** Spring writes whole seconds without millis. */
function iso(date: Date): string {
  return date.toISOString().replace(".000Z", "Z");
}

describe("Spring CronExpression vectors", () => {
  it("has the whole fixture", () => {
    expect(fireCases.length).toBeGreaterThanOrEqual(70);
    expect(invalidCases.length).toBeGreaterThanOrEqual(6);
  });

  it.each(fireCases.map((v) => [`${v.expression} in ${v.zone} after ${v.from}`, v] as const))("%s", (_, vector) => {
    const cron = CronExpression.parse(vector.expression);
    const got: string[] = [];
    let after = new Date(vector.from);
    for (let i = 0; i < vector.next.length; i++) {
      const next = cron.next(after, vector.zone);
      expect(next, `fire ${i + 1} after ${after.toISOString()}`).not.toBeNull();
      got.push(iso(next!));
      after = next!;
    }
    expect(got).toEqual(vector.next);
    expect(cron.neverFires()).toBe(vector.next.length === 0);
    if (vector.next.length === 0) expect(cron.next(new Date(vector.from), vector.zone)).toBeNull();
    else expect(cron.nextAfterMs(Date.parse(vector.from), vector.zone)).toBe(Date.parse(vector.next[0]!));
  });

  it.each(invalidCases.map((v) => [v.expression] as const))("rejects %j", (expression) => {
    expect(() => CronExpression.parse(expression)).toThrow(CronSyntaxError);
  });
});
