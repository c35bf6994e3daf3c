// Named, timed phases (TypeSpec-style): `wowc --stats` prints them, the bench reads them, and tests
// hook `onPhase` to inject a fault.

/** `host`: `wowc check --host`'s cross-check of the host's TypeScript (after the others). */
export type PhaseName = "load" | "parse" | "bind" | "check" | "manifest" | "emit" | "write" | "host";

export interface PhaseTiming {
  readonly phase: PhaseName;
  readonly ms: number;
}

export class Phases {
  readonly timings: PhaseTiming[] = [];

  constructor(private readonly onPhase?: (phase: PhaseName) => void) {}

  run<T>(phase: PhaseName, work: () => T): T {
    this.onPhase?.(phase);
    const start = performance.now();
    try {
      return work();
    } finally {
      this.timings.push({ phase, ms: performance.now() - start });
    }
  }
}
