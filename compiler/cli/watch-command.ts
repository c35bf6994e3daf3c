// `wowc build --watch [dir]`: prints each build's diagnostics and time, keeps going on errors,
// stops on Ctrl-C (SIGINT) or SIGTERM.
import { resolve } from "node:path";
import type { CliArgs } from "./args.js";
import type { CliIO } from "./io.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { CONFIG_FILE, Watcher, type RebuildReport } from "../watch/watcher.js";

/** The lines printed after a build: diagnostics, then one status line with the time. */
export function describeBuild(report: RebuildReport, color = false): string {
  const out: string[] = [];
  if (report.diagnostics.length > 0) out.push(formatDiagnostics(report.diagnostics, { color }));
  const ms = Math.round(report.ms);
  const what = report.number === 0 ? "Built" : "Rebuilt";
  const parsed = report.number === 0 ? `${report.sources} file${report.sources === 1 ? "" : "s"}` : `${report.parsed} of ${report.sources} file${report.sources === 1 ? "" : "s"} parsed`;
  if (!report.ok) {
    out.push(`${what === "Built" ? "Build" : "Rebuild"} failed in ${ms} ms (${parsed}); nothing written. Watching for changes.\n`);
  } else {
    const written = report.written.length + report.removed.length;
    const files = written === 0 ? "outputs up to date" : `${report.written.length} written${report.removed.length > 0 ? `, ${report.removed.length} removed` : ""}`;
    out.push(`${what} in ${ms} ms (${parsed}; ${files}). Watching for changes.\n`);
  }
  return out.join("");
}

export async function runWatchCommand(_rest: readonly string[], io: CliIO, args?: CliArgs): Promise<number> {
  const root = resolve(io.cwd, args?.dir ?? ".");
  const color = args?.color ?? (io.isTTY === true && io.env?.NO_COLOR === undefined);
  const watcher = new Watcher({
    root,
    ...(args?.out === undefined ? {} : { outDir: resolve(io.cwd, args.out) }),
    warnAsError: args?.warnAsError,
    onBuild: (report) => {
      if (report.number > 0) io.stdout(`Change: ${report.changes.join(", ")}\n`);
      io.stdout(describeBuild(report, color));
    },
  });
  io.stdout(`Watching ${root} (.wow files and ${CONFIG_FILE}); press Ctrl-C to stop.\n`);
  watcher.start();
  await new Promise<void>((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      watcher.close();
      done();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  return 0;
}
