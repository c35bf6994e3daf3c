// What the checks of one build share.
import type { Location } from "../ast.js";
import type { BoundProgram } from "../binder/symbols.js";
import type { Reporter } from "../diagnostics/reporter.js";
import type { ScheduleVerdicts } from "./schedule-verdicts.js";
import type { Resolver } from "./resolve.js";

export interface CheckContext {
  readonly program: BoundProgram;
  readonly resolver: Resolver;
  readonly reporter: Reporter;
  /** Command (qualified name) → the `on` that handles it first. */
  readonly handled: Map<string, Location>;
  /** Events (qualified names) some command handler lists in `produces`. */
  readonly produced: Set<string>;
  /** `context/job-name` → where the job is named first. */
  readonly jobNames: Map<string, Location>;
  /** The build's cron and zone verdicts. */
  readonly verdicts: ScheduleVerdicts;
}
