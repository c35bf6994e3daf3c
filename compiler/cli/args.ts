// The command line of `wowc`, parsed into a plain object; errors are usage errors (exit 2).

export type Command = "build" | "check" | "cron" | "fmt" | "diff" | "init" | "lsp";

/** Options not given are undefined (written so under `exactOptionalPropertyTypes`). */
export interface CliArgs {
  readonly command?: Command | undefined;
  readonly dir: string;
  readonly out?: string | undefined;
  readonly format: "text" | "json";
  readonly warnAsError: boolean;
  readonly stats: boolean;
  readonly color?: boolean | undefined;
  readonly help: boolean;
  readonly version: boolean;
  /** `wowc build --watch`: rebuild on every change until interrupted. */
  readonly watch: boolean;
  /** `wowc build --check`: write nothing, exit 1 listing the generated files that are out of date. */
  readonly check?: boolean | undefined;
  /** `wowc check --host <tsconfig>`: cross-check the host's TypeScript handlers against the declarations. */
  readonly host?: string | undefined;
  /** For the tool commands (`cron`, `fmt`, `diff`, `init`, `lsp`): everything after the command, untouched. */
  readonly rest: readonly string[];
}

export class UsageError extends Error {}

const commands: ReadonlySet<string> = new Set(["build", "check", "cron", "fmt", "diff", "init", "lsp"]);
/** Commands that parse their own arguments (their modules own their options and help). */
export const toolCommands: ReadonlySet<Command> = new Set<Command>(["cron", "fmt", "diff", "init", "lsp"]);

export function parseArgs(argv: readonly string[]): CliArgs {
  let command: Command | undefined;
  let dir: string | undefined;
  let out: string | undefined;
  let format: "text" | "json" = "text";
  let warnAsError = false;
  let stats = false;
  let color: boolean | undefined;
  let help = false;
  let version = false;
  let watch = false;
  let check = false;
  let host: string | undefined;
  let optionsEnd = false;
  let commandAt = -1;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // A tool command parses its own arguments: those after it, and the options given before it.
    if (command !== undefined && toolCommands.has(command)) return { command, dir: ".", format, warnAsError, stats, help, version, watch, rest: withoutCommand(argv, commandAt) };
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = (): string => {
      if (inline === "") throw new UsageError(`${flag} needs a value: ${flag}=<value> or ${flag} <value>.`);
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("-") || next === "") throw new UsageError(`${flag} needs a value.`);
      i++;
      return next;
    };
    if (optionsEnd) {
      ({ command, dir } = positional(command, dir, arg));
      if (commandAt < 0) commandAt = i;
      continue;
    }
    switch (flag) {
      case "--":
        optionsEnd = true; // POSIX: every later argument is an operand, even one starting with '-'
        break;
      case "--help":
      case "-h":
        help = true;
        break;
      case "--version":
      case "-v":
        version = true;
        break;
      case "--out":
      case "-o":
        out = value();
        break;
      case "--format": {
        const f = value();
        if (f !== "text" && f !== "json") throw new UsageError(`--format is 'text' or 'json', not '${f}'.`);
        format = f;
        break;
      }
      case "--warn-as-error":
        warnAsError = true;
        break;
      case "--stats":
        stats = true;
        break;
      case "--watch":
      case "-w":
        watch = true;
        break;
      case "--check":
        check = true;
        break;
      case "--host":
        host = value();
        break;
      case "--color":
        color = true;
        break;
      case "--no-color":
        color = false;
        break;
      default:
        if (arg.startsWith("-")) throw new UsageError(`Unknown option '${arg}'.`);
        if (command === undefined && arg === "help") help = true;
        else ({ command, dir } = positional(command, dir, arg));
        if (command !== undefined && commandAt < 0) commandAt = i;
    }
  }
  if (command !== undefined && toolCommands.has(command)) return { command, dir: ".", format, warnAsError, stats, help, version, watch, rest: withoutCommand(argv, commandAt) };
  if (watch && command !== "build") throw new UsageError("--watch goes with `wowc build`: wowc build --watch [dir].");
  if (check && command !== "build") throw new UsageError("--check goes with `wowc build`: wowc build --check [dir].");
  if (host !== undefined && command !== "check") throw new UsageError("--host goes with `wowc check`: wowc check --host <tsconfig> [dir].");
  return { check, host, command, dir: dir ?? ".", out, format, warnAsError, stats, color, help, version, watch, rest: [] };
}

/** An operand: the command first, then the one directory. */
function positional(command: Command | undefined, dir: string | undefined, arg: string): { command: Command; dir: string | undefined } {
  if (command === undefined) {
    if (!commands.has(arg)) throw new UsageError(`Unknown command '${arg}'.`);
    return { command: arg as Command, dir };
  }
  if (dir === undefined) {
    if (arg === "") throw new UsageError(`wowc ${command} takes a directory, not an empty argument.`);
    return { command, dir: arg };
  }
  throw new UsageError(`Unexpected argument '${arg}': wowc ${command} takes one directory.`);
}

/** A tool command's own arguments: all but the command (at `at`), in their order. */
function withoutCommand(argv: readonly string[], at: number): string[] {
  return [...argv.slice(0, at), ...argv.slice(at + 1)];
}

export const helpText = `wowc — compile .wow sources (contexts, aggregates, commands, events, sagas, scheduled jobs)

Usage:
  wowc build [dir] [--out <dir>]   check the sources under dir (default .) and write <out>/wow-manifest.json
                                   (default out: <dir>/generated; written only when its content changed)
  wowc build --watch [dir]         rebuild on every change of a .wow file or wow.config.json (Ctrl-C stops)
  wowc build --check [dir]         write nothing; exit 1 listing the generated files that are out of date
  wowc check [dir]                 run the same checks, write nothing
  wowc check --host <tsconfig> [dir]
                                   also cross-check the host's TypeScript (ts-morph): a schedule(…) or saga
                                   command(…) of a command the .wow declaration does not list is an error,
                                   a listed command no implementation schedules or sends is a warning
                                   (the SDK is read from --out, default <dir>/generated)
  wowc fmt [paths…] [--check]      format .wow files (--check: list unformatted files, exit 1)
  wowc diff <old> <new>            classify the changes between two manifests (wowc diff --help)
  wowc init [dir]                  scaffold a project: package.json, tsconfig, a .wow file, host, spec
  wowc cron <expression> …         explain a cron expression (wowc cron --help)
  wowc lsp                         the language server for editors, over stdio (wowc lsp --help)

Options:
  --format text|json   diagnostics as text with code frames (default) or one JSON object
  --warn-as-error      treat warnings as errors
  --stats              print the time of each compiler phase
  --color, --no-color  force colours on or off (default: on when writing to a terminal)
  -h, --help           show this help
  -v, --version        show the version
  --                   end of options: what follows is the directory, even if it starts with '-'

Options before a tool command (cron, fmt, diff, init, lsp) are passed to it: wowc --format json cron …
The output directory belongs to wowc: it is written whole or not at all, and a directory holding
files wowc did not write is refused (WOW6005).

Exit status: 0 no errors, 1 the sources have errors, 2 usage or internal error.
`;
