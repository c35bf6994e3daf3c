// Parse-level fuzzing: mutations of the example files never make the parser throw, and every
// diagnostic points inside the text.
import { describe, expect, it } from "vitest";
import { parseFile } from "../../compiler/parse/parse-file.js";
import { example } from "./helpers.js";
import { mutateSource } from "../support/mutate-source.js";
import { mulberry32 } from "../support/random.js";

describe("parser fuzz", () => {
  it("never throws on 2,400 mutated example files; every diagnostic lies inside the text", () => {
    const sources = [example("order").text, example("inventory").text];
    const random = mulberry32(20240611);
    let withErrors = 0;
    for (let n = 0; n < 2400; n++) {
      const text = mutateSource(sources[n % 2]!, random);
      let result;
      try {
        result = parseFile({ path: `fuzz-${n}.wow`, text });
      } catch (error) {
        throw new Error(`parseFile threw on input #${n}: ${JSON.stringify(text)}\n${String(error)}`);
      }
      if (result.diagnostics.length > 0) withErrors++;
      for (const d of result.diagnostics) {
        const loc = d.loc;
        if (loc === undefined || !(loc.start >= 0 && loc.start <= loc.end && loc.end <= text.length)) {
          throw new Error(`bad location ${JSON.stringify(loc && { start: loc.start, end: loc.end })} for ${d.code} on input #${n}: ${JSON.stringify(text)}`);
        }
        expect(d.message).not.toMatch(/^\{|undefined|NaN/);
      }
      const starts = result.diagnostics.map((d) => d.loc!.start);
      expect(new Set(starts).size).toBe(starts.length);
    }
    expect(withErrors).toBeGreaterThan(1500);
  });
});
