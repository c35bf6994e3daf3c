// A job's settings can be overridden by environment variables named from its key under
// `wow.schedules` (compiler/emit/config-view.ts): `WOW_SCHEDULES__<KEY>__EXPRESSION` and the like,
// the key in SCREAMING_SNAKE_CASE. Two keys that spell alike there (`nightly`, `Nightly`) would
// share every variable, and the generated config.ts could not list them both (WOW4009).
import { environmentVariable, jobConfigs } from "../emit/config-view.js";
import type { ProgramModel } from "../model.js";
import { compareLocations, type Reporter } from "./reporter.js";
import { forEachSpelledAlike, looseHash } from "./spelled-alike.js";

/** Across the whole program (a job's key depends on the other contexts' job names). */
export function checkJobVariables(model: ProgramModel, reporter: Reporter): void {
  // In source order, so that the later of two jobs is the one reported.
  const inSourceOrder = jobConfigs(model).sort((a, b) => compareLocations(a.job.decl.loc, b.job.decl.loc));
  forEachSpelledAlike(
    inSourceOrder,
    (config) => looseHash(config.key),
    (config) => environmentVariable(config.key, "expression"),
    (config, earlier, variable) => reporter.report("WOW4009", { name: config.key, other: earlier.key, variable }, config.job.decl.name.loc),
  );
}
