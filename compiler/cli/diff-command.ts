// `wowc diff <previous> <current>` and `wowc diff --against <git-ref> [dir]`.
import { existsSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import type { CliIO } from "./io.js";
import { commandSpec, unknownOption } from "./commands.js";
import { createDiagnostic } from "../diagnostics/diagnostic.js";
import { formatDiagnostics } from "../diagnostics/format.js";
import { diffManifests } from "../diff/diff-manifests.js";
import { acceptFileIn, buildDirectory, DEFAULT_MANIFEST, DiffInputError, loadAcceptList, loadPath, loadRevision, type LoadedManifest } from "../diff/load.js";
import { renderReport, type DiffFormat } from "../diff/report.js";
import { rules } from "../diff/rules.js";

export const diffHelp = `wowc diff — classify the changes between two manifests (breaking, behaviour-changing, safe)

Usage:
  wowc diff <previous> <current>         each a wow-manifest.json, or a directory of .wow sources (built in memory)
  wowc diff --against <git-ref> [dir]    previous: <dir>/${DEFAULT_MANIFEST} at <git-ref> (or, when it was not
                                         committed, the .wow files of <dir> at <git-ref>, compiled);
                                         current: a fresh build of the .wow files under dir (default .), so a
                                         stale or uncommitted manifest cannot hide a change

Options:
  --format text|markdown|json|github     text (default); markdown: a section per context, breaking first, for a
                                         pull request; github: ::error/::warning annotations on the .wow lines
  --allow-breaking                       exit 0 even with breaking changes
  --accept RULE:element                  accept one intended breaking change (repeatable; RULE:* accepts a rule)
  --config <file>                        the accept list (default: wowc.diff.json in dir, else in the working
                                         directory): { "accept": ["FIELD_SAME_TYPE:eshop-order.Order.PayOrder.amount"] }
  --manifest <path>                      the manifest's path under dir for --against (default ${DEFAULT_MANIFEST})
  --source-root <dir>                    prefix of the .wow paths in reports (default: the build root)

Exit status: 0 no unaccepted breaking change, 1 breaking changes, 2 usage error or unreadable input.
Rules: ${Object.keys(rules).join(", ")}.
`;

class UsageError extends Error {}

interface DiffArgs {
  readonly paths: string[];
  against?: string;
  format: DiffFormat;
  allowBreaking: boolean;
  readonly accept: string[];
  config?: string;
  manifest?: string;
  sourceRoot?: string;
}

function parse(argv: readonly string[]): DiffArgs | string {
  const args: DiffArgs = { paths: [], format: "text", allowBreaking: false, accept: [] };
  let operands = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // `--`: what follows are the inputs, even ones starting with '-'.
    if (arg === "--" && !operands) {
      operands = true;
      continue;
    }
    if (operands) {
      args.paths.push(arg);
      continue;
    }
    const [flag, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, undefined];
    const value = (): string => {
      const next = inline ?? argv[++i];
      if (next === undefined) throw new UsageError(`${flag} needs a value.`);
      return next;
    };
    switch (flag) {
      case "--against":
        args.against = value();
        break;
      case "--format": {
        const f = value();
        if (!["text", "markdown", "json", "github"].includes(f)) return `--format is text, markdown, json or github, not '${f}'.`;
        args.format = f as DiffFormat;
        break;
      }
      case "--allow-breaking":
        args.allowBreaking = true;
        break;
      case "--accept": {
        const key = value();
        const colon = key.indexOf(":");
        if (colon < 0) return `--accept takes RULE:element; '${key}' has no ':element' (${key in rules ? `${key}:* accepts the rule everywhere` : `Rules: ${Object.keys(rules).join(", ")}`}).`;
        const rule = key.slice(0, colon);
        if (!(rule in rules)) return `--accept takes RULE:element; '${rule}' is not a rule. Rules: ${Object.keys(rules).join(", ")}.`;
        args.accept.push(key);
        break;
      }
      case "--config":
        args.config = value();
        break;
      case "--manifest":
        args.manifest = value();
        break;
      case "--source-root":
        args.sourceRoot = value();
        break;
      case "--help":
      case "-h":
        return "help";
      default:
        if (arg.startsWith("-")) return unknownOption(arg, commandSpec("diff"));
        args.paths.push(arg);
    }
  }
  if (args.against !== undefined ? args.paths.length > 1 : args.paths.length !== 2) {
    return args.against !== undefined ? "--against takes one directory." : "give two manifests (or source directories), or --against <git-ref> [dir].";
  }
  return args;
}

export async function runDiffCommand(argv: readonly string[], io: CliIO): Promise<number> {
  let args: DiffArgs | string;
  try {
    args = parse(argv);
  } catch (error) {
    args = (error as Error).message;
  }
  if (args === "help") {
    io.stdout(diffHelp);
    return 0;
  }
  if (typeof args === "string") {
    io.stderr(`wowc diff: ${args}\nRun 'wowc diff --help' for usage.\n`);
    return 2;
  }
  const display = (path: string) => relative(io.cwd, path).split(sep).join("/") || ".";
  try {
    let previous: LoadedManifest;
    let current: LoadedManifest;
    let configDir = io.cwd;
    if (args.against !== undefined) {
      const dir = resolve(io.cwd, args.paths[0] ?? ".");
      previous = loadRevision(dir, args.against, args.manifest);
      current = buildDirectory(dir);
      configDir = dir;
    } else {
      const [before, after] = [resolve(io.cwd, args.paths[0]!), resolve(io.cwd, args.paths[1]!)];
      previous = loadPath(before, display(before));
      current = loadPath(after, display(after));
    }
    const configPath = args.config !== undefined ? resolve(io.cwd, args.config) : [acceptFileIn(configDir), acceptFileIn(io.cwd)].find(existsSync) ?? acceptFileIn(configDir);
    if (args.config !== undefined && !existsSync(configPath)) throw new DiffInputError([createDiagnostic("WOW7004", { path: args.config, reason: "no such file." })]);
    const listed = loadAcceptList(configPath, display(configPath));
    const result = diffManifests(previous.manifest, current.manifest, {
      accept: [...args.accept, ...listed.map((e) => e.key)],
      positions: { previous: previous.positions, current: current.positions },
    });
    // An accept that matches no change is stale (or has a typo in the element): it would silently
    // accept a later change of that element.
    for (const key of result.unmatched) {
      const entry = listed.find((e) => e.key === key);
      io.stderr(`wowc diff: warning: ${entry === undefined ? `--accept ${key}` : `${entry.at}: "${key}"`} matches no change; remove it, or it accepts a later change.\n`);
    }
    // Removed elements are in the previous sources: each side's paths are relative to its own root.
    const sourceRoot = args.sourceRoot ?? display(current.sourceRoot);
    const previousSourceRoot = args.sourceRoot ?? display(previous.sourceRoot);
    io.stdout(renderReport(result.changes, args.format, { sourceRoot, previousSourceRoot, allowBreaking: args.allowBreaking }));
    if (result.unaccepted > 0 && !args.allowBreaking) {
      if (args.format !== "json") {
        io.stderr(
          `wowc diff: ${result.unaccepted} breaking change${result.unaccepted === 1 ? "" : "s"}. If intended, accept each with --accept RULE:element ` +
            `(or list them in ${display(configPath)}), or pass --allow-breaking.\n`,
        );
      }
      return 1;
    }
    return 0;
  } catch (error) {
    if (!(error instanceof DiffInputError)) throw error;
    io.stdout(formatDiagnostics(error.diagnostics, { color: io.isTTY === true && io.env?.NO_COLOR === undefined }));
    return 2;
  }
}
