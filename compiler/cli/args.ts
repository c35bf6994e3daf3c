// The command line of `wowc`, parsed into a plain object; errors are usage errors (exit 2).

import { parseArgs as parseTokens } from "node:util";
import { commandHelp, commandSpec, COMMANDS, unknownCommand, unknownOption, type Command } from "./commands.js";

export type { Command } from "./commands.js";

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
  /** For the tool commands (`cron`, `fmt`, `diff`, `init`, `lsp`) and `completion`: everything after the command, untouched. */
  readonly rest: readonly string[];
}

export class UsageError extends Error {}

/** Commands that parse their own arguments (their modules own their options and help). */
export const toolCommands: ReadonlySet<Command> = new Set<Command>(COMMANDS.filter((c) => c.tool || c.name === "completion").map((c) => c.name));

/** Every option of build and check, as node:util's parseArgs reads them (which command takes which is checked after). */
const OPTIONS = Object.fromEntries(
  [...COMMANDS.filter((c) => !c.tool).flatMap((c) => c.options), { name: "version", short: "v" }].map((o) => [
    o.name,
    { type: "value" in o && o.value !== undefined ? ("string" as const) : ("boolean" as const), ...(o.short === undefined ? {} : { short: o.short }) },
  ]),
);

/**
 * The command line, read with node:util's parseArgs (tokens, not strict: the errors are ours, with
 * "did you mean"). A tool command gets every argument but its name, options before it included.
 */
export function parseArgs(argv: readonly string[]): CliArgs {
  const { tokens } = parseTokens({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const positionals = tokens.filter((t) => t.kind === "positional");
  const first = positionals[0];
  // `help` as the command: the global help, or with a command, that command's.
  if (first !== undefined && first.value === "help" && tokens.findIndex((t) => t.kind === "option-terminator") < 0) {
    const topic = positionals[1]?.value;
    if (topic === undefined) return plain({ help: true });
    if (commandSpec(topic) === undefined) throw new UsageError(unknownCommand(topic));
    return toolCommands.has(topic as Command) ? { ...plain({ help: true }), command: topic as Command, rest: ["--help"] } : plain({ help: true, command: topic as Command });
  }
  const spec = first === undefined ? undefined : commandSpec(first.value);
  if (first !== undefined && spec === undefined) throw new UsageError(unknownCommand(first.value));
  if (spec !== undefined && toolCommands.has(spec.name)) return { ...plain({}), command: spec.name, rest: [...argv.slice(0, first!.index), ...argv.slice(first!.index + 1)] };

  let dir: string | undefined;
  const seen = new Map<string, string | boolean>();
  for (const token of tokens) {
    if (token.kind === "option-terminator") continue;
    if (token.kind === "positional") {
      if (token === first) continue;
      if (dir !== undefined) throw new UsageError(`Unexpected argument '${token.value}': wowc ${spec!.name} takes one directory.`);
      if (token.value === "") throw new UsageError(`wowc ${spec!.name} takes a directory, not an empty argument.`);
      dir = token.value;
      continue;
    }
    const option = COMMANDS.flatMap((c) => (c.tool ? [] : c.options)).find((o) => o.name === token.name) ?? (token.name === "version" ? { name: "version" } : undefined);
    if (option === undefined) throw new UsageError(unknownOption(token.rawName, spec));
    if ("value" in option && option.value !== undefined) {
      const inline = token.inlineValue === true;
      if (token.value === undefined || token.value === "" || (!inline && token.value.startsWith("-"))) {
        throw new UsageError(inline ? `${token.rawName} needs a value: ${token.rawName}=<value> or ${token.rawName} <value>.` : `${token.rawName} needs a value.`);
      }
      if (option.values !== undefined && !option.values.includes(token.value)) throw new UsageError(`${token.rawName} is ${option.values.map((v) => `'${v}'`).join(" or ")}, not '${token.value}'.`);
      seen.set(option.name, token.value);
    } else seen.set(option.name, true);
  }
  const flag = (name: string) => seen.get(name) === true;
  const text = (name: string) => (typeof seen.get(name) === "string" ? (seen.get(name) as string) : undefined);
  if (spec !== undefined) {
    const wrong = [...seen.keys()].find((name) => name !== "version" && !spec.options.some((o) => o.name === name));
    if (wrong === "watch" || wrong === "check") throw new UsageError(`--${wrong} goes with \`wowc build\`: wowc build --${wrong} [dir].`);
    if (wrong === "host") throw new UsageError("--host goes with `wowc check`: wowc check --host <tsconfig> [dir].");
    if (wrong !== undefined) throw new UsageError(unknownOption(`--${wrong}`, spec));
  } else {
    if (flag("watch")) throw new UsageError("--watch goes with `wowc build`: wowc build --watch [dir].");
    if (flag("check")) throw new UsageError("--check goes with `wowc build`: wowc build --check [dir].");
    if (text("host") !== undefined) throw new UsageError("--host goes with `wowc check`: wowc check --host <tsconfig> [dir].");
  }
  return {
    check: flag("check"),
    host: text("host"),
    command: spec?.name,
    dir: dir ?? ".",
    out: text("out"),
    format: (text("format") ?? "text") as "text" | "json",
    warnAsError: flag("warn-as-error"),
    stats: flag("stats"),
    color: flag("color") ? true : flag("no-color") ? false : undefined,
    help: flag("help"),
    version: flag("version"),
    watch: flag("watch"),
    rest: [],
  };
}

function plain(given: Partial<CliArgs>): CliArgs {
  return { dir: ".", format: "text", warnAsError: false, stats: false, help: false, version: false, watch: false, rest: [], ...given };
}

/** The help of `command` (build, check, completion: from the table; tools print their own). */
export function helpOf(command: Command | undefined): string {
  const spec = command === undefined ? undefined : commandSpec(command);
  return spec === undefined ? helpText : commandHelp(spec);
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
  wowc completion bash|zsh|fish    print a shell completion script
  wowc help <command>              a command's usage and options (also wowc <command> --help)

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
