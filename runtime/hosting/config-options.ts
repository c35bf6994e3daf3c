// The loop options a host takes from `wow.timers`, checked before anything is opened: a value the
// loops cannot take is a WowConfigError naming its setting, not a bare RangeError from deep inside.
import { WowConfigError } from "../config/config-error.js";
import type { WowConfig } from "../config/types.js";
import { resolveTimerOptions, type TimerOptions } from "../timers/timer-options.js";

const SETTINGS = [
  ["pollInterval", "poll-interval"],
  ["maxAttempts", "max-attempts"],
] as const;

/** `wow.timers` as timer options; throws WowConfigError for a setting the timer service would refuse. */
export function configuredTimerOptions(config: WowConfig | undefined): TimerOptions {
  const timers = config?.wow.timers;
  if (timers === undefined) return {};
  const options: TimerOptions = { pollInterval: timers["poll-interval"], maxAttempts: timers["max-attempts"] };
  const problems = SETTINGS.flatMap(([option, setting]) => {
    try {
      resolveTimerOptions({ [option]: options[option] });
      return [];
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return [{ path: `/wow/timers/${setting}`, message: error.message.replace(/^timers\.\w+:? ?/, ""), source: "the configuration" }];
    }
  });
  if (problems.length > 0) throw new WowConfigError(problems);
  return options;
}
