// A job's settings can be overridden by environment variables named from its key under
// `wow.schedules` (compiler/emit/config-view.ts): `WOW_SCHEDULES__<KEY>__EXPRESSION` and the like,
// the key in SCREAMING_SNAKE_CASE. Two keys that spell alike there (`nightly`, `Nightly`) would
// share every variable, and the generated config.ts could not list them both (WOW4009).
import { environmentVariable, jobConfigs, type JobConfig } from "../emit/config-view.js";
import type { ProgramModel } from "../model.js";
import { looseHash } from "./loose-hash.js";
import type { Reporter } from "./reporter.js";
import type { Location } from "../ast.js";

function compareLocations(a: Location, b: Location): number {
  return a.file.path < b.file.path ? -1 : a.file.path > b.file.path ? 1 : a.start - b.start;
}

/** Across the whole program (a job's key depends on the other contexts' job names). */
export function checkJobVariables(model: ProgramModel, reporter: Reporter): void {
  const byHash = new Map<number, JobConfig[]>();
  // In source order, so that the later of two jobs is the one reported.
  const inSourceOrder = jobConfigs(model).sort((a, b) => compareLocations(a.job.decl.loc, b.job.decl.loc));
  for (const config of inSourceOrder) {
    const hash = looseHash(config.key);
    const earlier = byHash.get(hash);
    if (earlier === undefined) {
      byHash.set(hash, [config]);
      continue;
    }
    const variable = environmentVariable(config.key, "expression");
    const other = earlier.find((c) => environmentVariable(c.key, "expression") === variable);
    if (other !== undefined) reporter.report("WOW4009", { name: config.key, other: other.key, variable }, config.job.decl.name.loc);
    earlier.push(config);
  }
}
