// Preloaded into a bench's child process (`node --import …/cpu-usage.mjs`): on exit, writes the
// process's own CPU time (user + system, ms) to $WOWC_BENCH_CPU_FILE, so a bench on a loaded
// machine can compare processes by the CPU they used rather than by wall time alone.
import { writeFileSync } from "node:fs";

const file = process.env.WOWC_BENCH_CPU_FILE;
if (file !== undefined) {
  process.on("exit", () => {
    const { user, system } = process.cpuUsage();
    writeFileSync(file, String((user + system) / 1000));
  });
}
