// `wowc lsp [--stdio] [--debounce <ms>]`: the language server, speaking the Language Server
// Protocol over stdin and stdout until the client says `exit` (or closes stdin).
import { createConnection, ProposedFeatures } from "vscode-languageserver/node";
import type { CliIO } from "./io.js";
import { commandSpec, unknownOption } from "./commands.js";
import { DEFAULT_DEBOUNCE_MS, startServer } from "../lsp/server.js";

export const lspHelp = `wowc lsp [--stdio] [--debounce <ms>] — the .wow language server (Language Server Protocol over stdio)

  --stdio          speak over stdin and stdout (the default, and the only transport)
  --debounce <ms>  how long edits wait for more edits before diagnostics are computed (default ${DEFAULT_DEBOUNCE_MS})

Editors start it themselves (editors/vscode/ holds the VS Code extension). It serves every .wow
file of the workspace: diagnostics as \`wowc check\` reports them, hover, definitions, references,
rename, completion, formatting, symbols and quick fixes; wow.config.json is checked against the
schema the declarations generate.
`;

export async function runLspCommand(argv: readonly string[], io: CliIO): Promise<number> {
  let debounceMs: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") {
      io.stdout(lspHelp);
      return 0;
    }
    if (arg === "--stdio" || arg.startsWith("--clientProcessId")) {
      if (arg === "--clientProcessId") i++;
      continue;
    }
    // `--` ends the options; the server takes no operand after it.
    if (arg === "--") continue;
    const option = /^--debounce(?:=(.*))?$/.exec(arg);
    if (option !== null) {
      const value = option[1] ?? argv[++i];
      if (value === undefined || !/^\d+$/.test(value)) {
        io.stderr(`wowc lsp: --debounce needs a whole number of milliseconds.\n${lspHelp}`);
        return 2;
      }
      debounceMs = Number(value);
      continue;
    }
    io.stderr(`wowc lsp: ${unknownOption(arg, commandSpec("lsp"))}\n${lspHelp}`);
    return 2;
  }
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  // stdout carries the protocol: anything logged goes to the client's log instead.
  console.log = (...args: unknown[]) => connection.console.log(args.map(String).join(" "));
  console.info = console.log;
  console.warn = (...args: unknown[]) => connection.console.warn(args.map(String).join(" "));
  console.error = (...args: unknown[]) => connection.console.error(args.map(String).join(" "));
  startServer(connection, debounceMs === undefined ? {} : { debounceMs });
  // The connection ends the process on `exit` or when stdin closes.
  return await new Promise<number>(() => {});
}
