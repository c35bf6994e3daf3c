// The command line of `wowc`, parsed into a plain object; errors are usage errors (exit 2).

export type Command = "build" | "check" | "cron" | "fmt" | "diff" | "init";

export interface CliArgs {
  readonly command?: Command;
  readonly dir: string;
  readonly out?: string;
  readonly format: "text" | "json";
  readonly warnAsError: boolean;
  readonly stats: boolean;
  readonly color?: boolean;
  readonly help: boolean;
  readonly version: boolean;
  /** `wowc build --watch`: rebuild on every change until interrupted. */
  readonly watch: boolean;
  /** `wowc build --check`: write nothing, exit 1 listing the generated files that are out of date. */
  readonly check?: boolean;
  /** `wowc check --host <tsconfig>`: cross-check the host's TypeScript handlers against the declarations. */
  readonly host?: string;
  /** For the tool commands (`cron`, `fmt`, `diff`, `init`): everything after the command, untouched. */
  readonly rest: readonly string[];
}

export class UsageError extends Error {}

const commands: ReadonlySet<string> = new Set(["build", "check", "cron", "fmt", "diff", "init"]);
/** Commands that parse their own arguments (their modules own their options and help). */
export const toolCommands: ReadonlySet<Command> = new Set<Command>(["cron", "fmt", "diff", "init"]);

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
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (command !== undefined && toolCommands.has(command)) return { command, dir: ".", format, warnAsError, stats, help, version, watch, rest: argv.slice(i) };
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("-")) throw new UsageError(`${flag} needs a value.`);
      i++;
      return next;
    };
    switch (flag) {
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
        if (command === undefined) {
          if (arg === "help") {
            help = true;
            break;
          }
          if (!commands.has(arg)) throw new UsageError(`Unknown command '${arg}'.`);
          command = arg as Command;
        } else if (dir === undefined) dir = arg;
        else throw new UsageError(`Unexpected argument '${arg}': wowc ${command} takes one directory.`);
    }
  }
  if (command !== undefined && toolCommands.has(command)) return { command, dir: ".", format, warnAsError, stats, help, version, watch, rest: [] };
  if (watch && command !== "build") throw new UsageError("--watch goes with `wowc build`: wowc build --watch [dir].");
  if (check && command !== "build") throw new UsageError("--check goes with `wowc build`: wowc build --check [dir].");
  if (host !== undefined && command !== "check") throw new UsageError("--host goes with `wowc check`: wowc check --host <tsconfig> [dir].");
  return { ...(check ? { check } : {}), ...(host === undefined ? {} : { host }), ...(command === undefined ? {} : { command }), dir: dir ?? ".", ...(out === undefined ? {} : { out }), format, warnAsError, stats, ...(color === undefined ? {} : { color }), help, version, watch, rest: [] };
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

Options:
  --format text|json   diagnostics as text with code frames (default) or one JSON object
  --warn-as-error      treat warnings as errors
  --stats              print the time of each compiler phase
  --color, --no-color  force colours on or off (default: on when writing to a terminal)
  -h, --help           show this help
  -v, --version        show the version

Exit status: 0 no errors, 1 the sources have errors, 2 usage or internal error.
`;
