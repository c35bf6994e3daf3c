// What a command of `wowc` is given to talk to the world (runCli and each tool command), and its exit statuses.
import type { PhaseName } from "../program/phases.js";

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** The working directory relative paths are resolved against. */
  readonly cwd: string;
  /** Whether stdout is a terminal (colours). */
  readonly isTTY?: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Called as each compiler phase starts; tests use it to inject a fault. */
  readonly onPhase?: (phase: PhaseName) => void;
}

export const EXIT_OK = 0;
export const EXIT_SOURCE_ERRORS = 1;
export const EXIT_USAGE_OR_INTERNAL = 2;
