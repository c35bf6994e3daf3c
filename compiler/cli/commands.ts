// The table of `wowc`'s commands and their options: what the argument parser reads, what per-command
// help, "did you mean" and the shell completion scripts are made from. A tool command (cron, fmt,
// diff, init, lsp) parses its own arguments; its options are listed here for completion and
// suggestions.
import { didYouMean, nearest } from "../diagnostics/suggest.js";

export type Command = "build" | "check" | "cron" | "fmt" | "diff" | "init" | "lsp" | "completion";

export interface OptionSpec {
  readonly name: string;
  readonly short?: string;
  /** A value follows (`--out <dir>`); `values`: the only ones it takes. */
  readonly value?: string;
  readonly values?: readonly string[];
  readonly description: string;
}

export interface CommandSpec {
  readonly name: Command;
  readonly summary: string;
  readonly usage: readonly string[];
  readonly options: readonly OptionSpec[];
  /** Parses its own arguments (its module prints its own help). */
  readonly tool: boolean;
}

/** `-h, --help`: the table prints the help of build, check and completion; a tool command prints its own. */
const HELP: OptionSpec = { name: "help", short: "h", description: "show this help" };
const TOOL_HELP: OptionSpec = { ...HELP, description: "show its help" };

/** `--format text|json`: diagnostics for build and check, the fire times for cron. */
const FORMAT = { name: "format", value: "text|json", values: ["text", "json"] } as const;

/** How a compiling command writes its diagnostics. */
const DIAGNOSTICS: readonly OptionSpec[] = [
  { ...FORMAT, description: "diagnostics as text with code frames (default) or one JSON object" },
  { name: "warn-as-error", description: "treat warnings as errors" },
  { name: "stats", description: "print the time of each compiler phase" },
  { name: "color", description: "force colours on (default: on when writing to a terminal)" },
  { name: "no-color", description: "force colours off" },
];

/** Options every compiling command (build, check) takes. */
const COMMON: readonly OptionSpec[] = [...DIAGNOSTICS, { name: "out", short: "o", value: "dir", description: "the output directory (default <dir>/generated)" }, HELP];

/** A compiling command: wowc's parser reads its options, the common ones first, then its own. */
function compiling(spec: Omit<CommandSpec, "tool">): CommandSpec {
  return { ...spec, options: [...COMMON, ...spec.options], tool: false };
}

/** A tool command: it parses its own arguments and prints its own help; `-h, --help` ends its options. */
function tool(spec: Omit<CommandSpec, "tool">): CommandSpec {
  return { ...spec, options: [...spec.options, TOOL_HELP], tool: true };
}

export const COMMANDS: readonly CommandSpec[] = [
  compiling({
    name: "build",
    summary: "check the sources and write the manifest, the SDK, openapi.json and the config schema",
    usage: ["wowc build [dir] [--out <dir>] [--watch | --check]"],
    options: [
      { name: "watch", short: "w", description: "rebuild on every change of a .wow file or wow.config.json (Ctrl-C stops)" },
      { name: "check", description: "write nothing; exit 1 listing the generated files that are out of date" },
    ],
  }),
  compiling({
    name: "check",
    summary: "run the same checks as build, write nothing",
    usage: ["wowc check [dir] [--host <tsconfig>]"],
    options: [{ name: "host", value: "tsconfig", description: "also cross-check the host's TypeScript handlers against the declarations (a progress line on a terminal)" }],
  }),
  tool({
    name: "cron",
    summary: "preview a cron rule's next fire times in a zone",
    usage: ['wowc cron "<expression>" [--zone Z] [--from ISO] [--count N] [--json]'],
    options: [
      { name: "zone", value: "zone", description: "IANA time zone" },
      { name: "from", value: "instant", description: "start after this instant" },
      { name: "count", value: "n", description: "how many fire times" },
      { name: "json", description: "one JSON object" },
      { ...FORMAT, description: "as --json" },
    ],
  }),
  tool({
    name: "fmt",
    summary: "format .wow files in one canonical layout",
    usage: ["wowc fmt [paths…] [--check] [--print-width N]"],
    options: [
      { name: "check", description: "list unformatted files, exit 1" },
      { name: "print-width", value: "n", description: "the column long annotations wrap at (default 100)" },
    ],
  }),
  tool({
    name: "diff",
    summary: "classify the changes between two manifests",
    usage: ["wowc diff <previous> <current>", "wowc diff --against <git-ref> [dir]"],
    options: [
      { name: "against", value: "git-ref", description: "compare with a git revision" },
      { name: "format", value: "format", values: ["text", "markdown", "json", "github"], description: "the report's format" },
      { name: "allow-breaking", description: "exit 0 even with breaking changes" },
      { name: "accept", value: "RULE:element", description: "accept one intended breaking change" },
      { name: "config", value: "file", description: "the accept list" },
      { name: "manifest", value: "path", description: "the manifest's path for --against" },
      { name: "source-root", value: "dir", description: "prefix of the .wow paths in reports" },
    ],
  }),
  tool({
    name: "init",
    summary: "scaffold a project: package.json, tsconfig, a .wow file, host, spec",
    usage: ["wowc init [dir] [--name <context>] [--force]"],
    options: [
      { name: "name", value: "name", description: "the package name" },
      { name: "context", value: "context", description: "the context name" },
      { name: "wowc", value: "spec", description: "the wowc dependency" },
      { name: "force", description: "overwrite existing files" },
    ],
  }),
  tool({
    name: "lsp",
    summary: "the language server for editors, over stdio",
    usage: ["wowc lsp [--stdio]"],
    options: [
      { name: "stdio", description: "talk over stdin and stdout (the default)" },
      { name: "client", value: "name", description: "the editor" },
      { name: "debounce", value: "ms", description: "wait before checking a change" },
    ],
  }),
  {
    name: "completion",
    summary: "print a shell completion script",
    usage: ["wowc completion bash|zsh|fish"],
    options: [HELP],
    tool: false,
  },
];

export const commandNames: readonly Command[] = COMMANDS.map((c) => c.name);

export function commandSpec(name: string): CommandSpec | undefined {
  return COMMANDS.find((c) => c.name === name);
}

/** `Unknown command 'buidl'.` with a suggestion when one is near. */
export function unknownCommand(name: string): string {
  const near = nearest(name, commandNames);
  return `Unknown command '${name}'.${near === undefined ? "" : ` ${didYouMean(near).trim()}`}`;
}

/** `Unknown option '--wacth'.` with the nearest option of the command when one is near. */
export function unknownOption(option: string, command: CommandSpec | undefined): string {
  const names = (command?.options ?? COMMANDS.flatMap((c) => c.options)).map((o) => `--${o.name}`);
  const near = option.startsWith("--") ? nearest(option, names) : undefined;
  return `Unknown option '${option}'.${near === undefined ? "" : ` ${didYouMean(near).trim()}`}`;
}

/** `wowc build --help`: the command's usage and options. */
export function commandHelp(spec: CommandSpec): string {
  const rows = spec.options.map((o) => [`${o.short === undefined ? "    " : `-${o.short}, `}--${o.name}${o.value === undefined ? "" : ` <${o.value}>`}`, o.description] as const);
  const width = Math.max(...rows.map(([left]) => left.length));
  return `wowc ${spec.name} — ${spec.summary}

Usage:
${spec.usage.map((u) => `  ${u}`).join("\n")}

Options:
${rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join("\n")}
  ${"--".padEnd(width)}  end of options: what follows is an operand, even if it starts with '-'
`;
}
