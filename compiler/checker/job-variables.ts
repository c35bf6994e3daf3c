// A job's key under `wow.schedules` (the generated configuration's, compiler/emit/config-view.ts),
// and the environment variables that override its settings, named from the key:
// `WOW_SCHEDULES__<KEY>__EXPRESSION` and the like, the key in SCREAMING_SNAKE_CASE. Two keys that
// spell alike there (`nightly`, `Nightly`) would share every variable, and the generated config.ts
// could not list them both (WOW4009).
import { environmentVariable as settingVariable } from "../../runtime/config/config-keys.js";
import type { JobModel, ProgramModel } from "../model.js";
import { compareLocations, type Reporter } from "../diagnostics/reporter.js";
import { forEachSpelledAlike, looseHash } from "./spelled-alike.js";

export interface JobConfig {
  /** The key under `wow.schedules`: the job's name, qualified with its context when two contexts share it. */
  readonly key: string;
  readonly job: JobModel;
  readonly context: string;
}

/** Each model's job configs, in key order: made once, however many outputs list them. */
const configsOf = new WeakMap<ProgramModel, readonly JobConfig[]>();

/** The program's jobs with their keys, in key order (a new array each call: callers may sort it). */
export function jobConfigs(model: ProgramModel): JobConfig[] {
  let configs = configsOf.get(model);
  if (configs === undefined) configsOf.set(model, (configs = makeJobConfigs(model)));
  return [...configs];
}

function makeJobConfigs(model: ProgramModel): JobConfig[] {
  const jobs = model.contexts.flatMap((context) => context.sagas.flatMap((saga) => saga.jobs.map((job) => ({ job, context: context.name }))));
  const counts = new Map<string, number>();
  for (const { job } of jobs) counts.set(job.name, (counts.get(job.name) ?? 0) + 1);
  return jobs
    .map(({ job, context }) => ({ job, context, key: counts.get(job.name)! > 1 ? `${context}.${job.name}` : job.name }))
    .sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/** The environment variable that overrides `setting` of the job under `key`: `__` separates levels. */
export function environmentVariable(key: string, setting: string): string {
  return settingVariable(["wow", "schedules", key, setting]);
}

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
