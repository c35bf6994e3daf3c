// The VS Code client of `wowc lsp`: it starts the workspace's own wowc (from its node_modules, so
// the editor checks with the version the project builds with) as the language server over stdio,
// and serves the JSON Schema of `wow.config.json` that the server generates from the declarations.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";

const SCHEMA_SCHEME = "wowc-schema";
let client: LanguageClient | undefined;

/** `dist/compiler/cli/main.js` of the wowc this workspace uses: the setting, its node_modules, or wowc's own checkout. */
function serverModule(): string | undefined {
  const configured = vscode.workspace.getConfiguration("wow").get<string>("server.path", "");
  if (configured !== "") return configured;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const root = folder.uri.fsPath;
    const installed = join(root, "node_modules", "wowc", "dist", "compiler", "cli", "main.js");
    if (existsSync(installed)) return installed;
    const own = join(root, "dist", "compiler", "cli", "main.js");
    if (existsSync(own) && isWowc(join(root, "package.json"))) return own;
  }
  return undefined;
}

function isWowc(packageJson: string): boolean {
  try {
    return (JSON.parse(readFileSync(packageJson, "utf8")) as { name?: unknown }).name === "wowc";
  } catch {
    return false;
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const module = serverModule();
  if (module === undefined) {
    void vscode.window.showWarningMessage("wow: no wowc in this workspace's node_modules. Install it (npm install --save-dev wowc) or set wow.server.path, then reload the window.");
    return;
  }
  // `node <main.js> lsp --stdio`: the transport adds `--stdio`.
  const serverOptions: ServerOptions = {
    run: { module, args: ["lsp"], transport: TransportKind.stdio },
    debug: { module, args: ["lsp"], transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "wow" },
      { scheme: "file", pattern: "**/wow.config.json" },
    ],
  };
  client = new LanguageClient("wow", "wow", serverOptions, clientOptions);

  // The schema of each wow.config.json, as the server tells it; VS Code's JSON support asks for it
  // through the `jsonValidation` contribution's URI, answered here from the server.
  const schemas = new Map<string, string>();
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    provideTextDocumentContent: async () => {
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      const uri = (active === undefined ? undefined : schemas.get(active)) ?? [...schemas.values()][0];
      const schema = await client?.sendRequest("wow/configSchema", { uri });
      return JSON.stringify(schema ?? {});
    },
  };
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(SCHEMA_SCHEME, provider), changed);
  await client.start();
  context.subscriptions.push(
    client.onNotification("wow/schemaAssociations", (params: { associations: Array<{ fileMatch: string[]; uri: string }> }) => {
      for (const { fileMatch, uri } of params.associations) for (const file of fileMatch) schemas.set(file, uri);
      changed.fire(vscode.Uri.parse(`${SCHEMA_SCHEME}://schema/wow.config.schema.json`));
    }),
  );
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
