// "Did you mean": the nearest declared name, and a bounded cost when unknown names flood in.
import { describe, expect, it } from "vitest";
import { Candidates, nearest } from "../../compiler/diagnostics/suggest.js";

describe("nearest", () => {
  it("counts two adjacent characters swapped as one edit (optimal string alignment)", () => {
    expect(nearest("buidl", ["build", "check", "cron", "diff"])).toBe("build");
    expect(nearest("wacth", ["watch", "warn-as-error", "stats"])).toBe("watch");
    expect(nearest("ab", ["ba"])).toBe("ba");
    // A swap is one edit, not a licence: two swaps in a short name are too far.
    expect(nearest("ubidl", ["build"])).toBeUndefined();
  });

  it("suggests the nearest name within a third of the name's length, ties to the alphabetically first", () => {
    expect(nearest("CancelOdrer", ["CreateOrder", "CancelOrder", "PayOrder"])).toBe("CancelOrder");
    expect(nearest("Ordr", ["Order", "Orde"])).toBe("Orde");
    expect(nearest("Shipment", ["CancelOrder", "PayOrder"])).toBeUndefined();
  });
});

describe("a flood of distinct unknown names", () => {
  it("stops suggesting once the edit distances it computed reach the budget: the first unknown names keep theirs", () => {
    const names = Array.from({ length: 2000 }, (_, i) => `Thing${i}`);
    const candidates = new Candidates(names);
    const answers = Array.from({ length: 8000 }, (_, i) => candidates.nearest(`Thimg${i % 2000}`));
    expect(answers.slice(0, 3)).toEqual(["Thing0", "Thing1", "Thing2"]);
    expect(answers.at(-1)).toBeUndefined();
    // Each lookup computed some distances (pruning skips the rest): no more than the budget allows.
    const suggested = answers.filter((a) => a !== undefined).length;
    expect(suggested).toBeGreaterThan(100);
    expect(suggested).toBeLessThan(8000);
    expect(answers.slice(suggested).every((a) => a === undefined)).toBe(true);
  });
});
