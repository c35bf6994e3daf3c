import type { ConfigProblem } from "./types.js";

/** Every problem of a configuration at once, one per line: `/wow/timers/max-attempts: must be >= 1 (wow.config.json)`. */
export class WowConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(`Invalid wow configuration (${problems.length} problem${problems.length === 1 ? "" : "s"}):\n${problems.map((p) => `  ${p.path}: ${p.message} (${p.source})`).join("\n")}`);
    this.name = "WowConfigError";
  }
}
