// `wowc` as a function: parse the arguments, run the command, print, return the exit status.
// 0 no errors · 1 the sources have errors · 2 usage or internal error (WOW9999, no stack trace
// unless WOWC_DEBUG=1). Heavy modules (parser, checker) are imported only when a command needs them.
import { readFileSync } from "node:fs";
import { dirname, relative, resolve, sep } from "node:path";
import { helpOf, helpText, parseArgs, toolCommands, UsageError, type CliArgs, type Command } from "./args.js";
import { packageFile } from "../package-root.js";
import type { Diagnostic } from "../diagnostics/diagnostic.js";
import type { PhaseTiming } from "../program/phases.js";
import { EXIT_OK, EXIT_SOURCE_ERRORS, EXIT_USAGE_OR_INTERNAL, type CliIO } from "./io.js";

export { EXIT_OK, EXIT_SOURCE_ERRORS, EXIT_USAGE_OR_INTERNAL, type CliIO } from "./io.js";

export async function runCli(argv: readonly string[], io: CliIO): Promise<number> {
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) return await internalError(error, io, wantsJson(argv));
    return await usageError(io, wantsJson(argv), error.message);
  }
  try {
    if (args.version) {
      io.stdout(`${readVersion()}\n`);
      return EXIT_OK;
    }
    if (args.command !== undefined && toolCommands.has(args.command)) return await runTool(args.command as keyof typeof tools, args.rest, io);
    if (args.help || args.command === undefined) {
      (args.help ? io.stdout : io.stderr)(args.help ? helpOf(args.command) : helpText);
      return args.help ? EXIT_OK : EXIT_USAGE_OR_INTERNAL;
    }
    return await runBuild(args, io);
  } catch (error) {
    return await internalError(error, io, args.format === "json");
  }
}

async function runBuild(args: CliArgs, io: CliIO): Promise<number> {
  const { statSync } = await import("node:fs");
  const root = resolve(io.cwd, args.dir);
  let isDirectory = false;
  try {
    isDirectory = statSync(root).isDirectory();
  } catch {
    isDirectory = false;
  }
  const json = args.format === "json";
  if (!isDirectory) return await usageError(io, json, `'${args.dir}' is not a directory.`, `Run 'wowc ${args.command} <dir>' in or on the directory that holds your .wow files.`);
  if (args.out !== undefined && statSync(resolve(io.cwd, args.out), { throwIfNoEntry: false })?.isDirectory() === false) {
    return await usageError(io, json, `--out '${args.out}' is a file, not a directory.`, "Pass the directory to write the manifest and the SDK into (it is created when missing).");
  }
  if (args.watch) return await runTool("build --watch", [], io, args);
  const [{ build }, { formatDiagnostics }] = await Promise.all([import("../program/build.js"), import("../diagnostics/format.js")]);
  const started = performance.now();
  const result = build({
    root,
    ...(args.out === undefined ? {} : { outDir: resolve(io.cwd, args.out) }),
    write: args.command === "build",
    check: args.check === true,
    warnAsError: args.warnAsError,
    onPhase: io.onPhase,
  });
  let timings = result.timings;
  if (args.host !== undefined && !result.diagnostics.some((d) => d.severity === "error")) {
    const hostStarted = performance.now();
    result.diagnostics.push(...(await hostDiagnostics(args, io, root, result.model)));
    timings = [...timings, { phase: "host", ms: performance.now() - hostStarted }];
  }
  const ms = Math.round(performance.now() - started);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  const color = args.color ?? (io.isTTY === true && io.env?.NO_COLOR === undefined);
  // In JSON mode stdout holds only the JSON object; the human lines go to stderr.
  const say = json ? io.stderr : io.stdout;
  if (json) io.stdout(formatDiagnostics(result.diagnostics, { format: "json" }));
  else if (result.diagnostics.length > 0) io.stdout(formatDiagnostics(result.diagnostics, { color, displayPath: (path) => relativeToCwd(resolve(root, path), io.cwd) }));
  if (args.stats) say(formatStats(timings));
  if (errors.length > 0) {
    if (args.command === "build") say(`Build failed: ${relativeToCwd(result.manifestPath, io.cwd)} was not written.\n`);
    return result.diagnostics.some((d) => d.code === "WOW6003" || d.code === "WOW6005") ? EXIT_USAGE_OR_INTERNAL : EXIT_SOURCE_ERRORS;
  }
  const files = `${result.sourceCount} file${result.sourceCount === 1 ? "" : "s"}`;
  if (args.command === "check") say(`Checked ${files} in ${ms} ms.\n`);
  else if (args.check === true) {
    const out = relativeToCwd(dirname(result.manifestPath), io.cwd);
    const stale = [...result.output.changed.map((p) => `  ${out}/${p}`), ...result.output.removed.map((p) => `  ${out}/${p} (no longer generated)`)];
    if (stale.length > 0) {
      say(`${stale.length} generated file${stale.length === 1 ? " is" : "s are"} out of date; run \`wowc build\`:\n${stale.join("\n")}\n`);
      return EXIT_SOURCE_ERRORS;
    }
    say(`Generated files in ${out} are up to date (from ${files}); checked in ${ms} ms.\n`);
  } else {
    const { changed, removed } = result.output;
    const out = relativeToCwd(dirname(result.manifestPath), io.cwd);
    const deleted = removed.length > 0 ? `, deleted ${removed.length} stale` : "";
    say(changed.length + removed.length === 0
      ? `${out} is up to date (from ${files}); checked in ${ms} ms.\n`
      : `Wrote ${changed.length} file${changed.length === 1 ? "" : "s"} to ${out}${deleted} (from ${files}) in ${ms} ms.\n`);
  }
  return EXIT_OK;
}

/** `wowc check --host`: ts-morph is loaded only here. Warnings become errors with --warn-as-error. */
async function hostDiagnostics(args: CliArgs, io: CliIO, root: string, model: import("../model.js").ProgramModel): Promise<import("../diagnostics/diagnostic.js").Diagnostic[]> {
  const [{ checkHost }, { sortDiagnostics }] = await Promise.all([import("../host-check/host-check.js"), import("../diagnostics/format.js")]);
  // On a terminal, one line says what the seconds go to, and is cleared when done (never in a pipe or a log).
  const progress = io.isTTY === true && args.format !== "json";
  const started = performance.now();
  const found = checkHost({
    root,
    sdkDir: args.out === undefined ? resolve(root, "generated") : resolve(io.cwd, args.out),
    tsconfig: resolve(io.cwd, args.host!),
    model,
    ...(progress ? { onStep: (step: string) => io.stderr(`\r\x1b[2Kwowc check --host: ${step}… (${((performance.now() - started) / 1000).toFixed(1)} s)`) } : {}),
  });
  if (progress) io.stderr("\r\x1b[2K");
  return sortDiagnostics(args.warnAsError ? found.map((d) => ({ ...d, severity: "error" as const })) : found);
}

type ToolFunction = (rest: readonly string[], io: CliIO, args?: CliArgs) => Promise<number> | number;

/** Each tool command's module (loaded only when it runs) and its function; they parse their own arguments. */
const tools: Readonly<Record<Exclude<Command, "build" | "check"> | "build --watch", () => Promise<ToolFunction>>> = {
  cron: async () => {
    const { runCronCommand } = await import("./cron-command.js");
    return (rest, io) => runCronCommand([...rest], io); // its third parameter is a clock for tests, not the CLI's args
  },
  fmt: async () => (await import("./fmt-command.js")).runFmtCommand,
  diff: async () => (await import("./diff-command.js")).runDiffCommand,
  init: async () => (await import("./init-command.js")).runInitCommand,
  lsp: async () => (await import("./lsp-command.js")).runLspCommand,
  completion: async () => (await import("./completion-command.js")).runCompletionCommand,
  "build --watch": async () => (await import("./watch-command.js")).runWatchCommand,
};

async function runTool(command: keyof typeof tools, rest: readonly string[], io: CliIO, args?: CliArgs): Promise<number> {
  let run: ToolFunction;
  try {
    run = await tools[command]();
  } catch (error) {
    // A package installed without one of its modules: a usage error, not a crash.
    if ((error as { code?: string }).code !== "ERR_MODULE_NOT_FOUND") throw error;
    io.stderr(`wowc: \`wowc ${command}\` is not available in this build of wowc.\n`);
    return EXIT_USAGE_OR_INTERNAL;
  }
  return await run(rest, io, args);
}

function formatStats(timings: readonly PhaseTiming[]): string {
  const total = timings.reduce((sum, t) => sum + t.ms, 0);
  const rows = [...timings.map((t) => [t.phase, t.ms] as const), ["total", total] as const];
  return rows.map(([name, ms]) => `  ${name.padEnd(9)} ${ms.toFixed(1).padStart(8)} ms`).join("\n") + "\n";
}

function relativeToCwd(path: string, cwd: string): string {
  const rel = relative(cwd, path).split(sep).join("/");
  return rel.startsWith("..") ? path : rel;
}

/** `--format json` asked for on a command line that could not be parsed (the JSON consumer still gets JSON). */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  const options = end < 0 ? argv : argv.slice(0, end);
  return options.some((arg, i) => arg === "--format=json" || (arg === "--format" && options[i + 1] === "json"));
}

/** A usage error (exit 2): the line and the advice on stderr, and with --format json the diagnostic (WOW6006) on stdout. */
async function usageError(io: CliIO, json: boolean, detail: string, advice = "Run 'wowc --help' for usage."): Promise<number> {
  io.stderr(`wowc: ${detail}\n${advice}\n`);
  if (json) await printJson(io, (create) => create("WOW6006", { detail, advice }));
  return EXIT_USAGE_OR_INTERNAL;
}

async function internalError(error: unknown, io: CliIO, json: boolean): Promise<number> {
  const detail = error instanceof Error ? error.message.split("\n", 1)[0]! : String(error);
  io.stderr(`wowc: error WOW9999: Internal compiler error: ${detail} — sorry, this is a bug in wowc, not in your sources; please report it (set WOWC_DEBUG=1 for details).\n`);
  if (io.env?.WOWC_DEBUG === "1" && error instanceof Error && error.stack !== undefined) io.stderr(`${error.stack}\n`);
  if (json) await printJson(io, (create) => create("WOW9999", { detail }));
  return EXIT_USAGE_OR_INTERNAL;
}

/** One diagnostic about no file, as the JSON object of --format json, on stdout. */
async function printJson(io: CliIO, diagnostic: (create: typeof import("../diagnostics/diagnostic.js").createDiagnostic) => Diagnostic): Promise<void> {
  const [{ createDiagnostic }, { formatDiagnostics }] = await Promise.all([import("../diagnostics/diagnostic.js"), import("../diagnostics/format.js")]);
  io.stdout(formatDiagnostics([diagnostic(createDiagnostic)], { format: "json" }));
}

/** The version in wowc's own package.json. */
function readVersion(): string {
  return (JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version?: string }).version ?? "unknown";
}
