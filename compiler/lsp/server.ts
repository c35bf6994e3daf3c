// The language server: the protocol's requests and notifications wired to the workspace and to the
// features, each in a file of its own. Diagnostics are published after each (debounced) run of a
// build, for every file of it whose diagnostics changed and for the files the run was for.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  CodeActionKind, FileChangeType, TextDocumentSyncKind, TextDocuments, DidChangeWatchedFilesNotification,
  type Connection, type InitializeResult,
} from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { WowFile } from "../ast.js";
import { packageFile } from "../package-root.js";
import { findSources } from "../program/sources.js";
import { codeActions, didYouMean } from "./code-actions.js";
import { complete, TRIGGER_CHARACTERS } from "./completion.js";
import { configDiagnostics, configSchemaOf, schemaUriOf } from "./config-file.js";
import { toLspDiagnostic } from "./diagnostics.js";
import { formatDocument, formatRange } from "./formatting.js";
import { hover } from "./hover.js";
import { definition, highlights, references } from "./navigation.js";
import { toOffset } from "./positions.js";
import type { Project } from "./project.js";
import { prepareRename, rename } from "./rename.js";
import { documentSymbols, workspaceSymbols } from "./symbols.js";
import { CONFIG_FILE, Workspace } from "./workspace.js";

export interface ServerOptions {
  /** How long edits wait for more edits before a build runs (ms); `initializationOptions.debounceMs` overrides it. */
  readonly debounceMs?: number;
}

export const DEFAULT_DEBOUNCE_MS = 50;

/** The custom notification that tells the client which JSON Schema validates each `wow.config.json`. */
export const SCHEMA_ASSOCIATIONS = "wow/schemaAssociations";
/** The custom request that answers a schema URI of SCHEMA_ASSOCIATIONS with the schema. */
export const CONFIG_SCHEMA_REQUEST = "wow/configSchema";

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const documents = new TextDocuments(TextDocument);
  let workspace: Workspace | undefined;
  /** Per project, what was last published for each file (path relative to its root). */
  const published = new Map<Project, Map<string, string>>();
  const associations = new Map<string, string>();
  let watchRegistration = false;
  /** The clock of hovers' fire times (`initializationOptions.now` pins it, for tests). */
  let now = (): number => Date.now();

  const ws = (): Workspace => {
    if (workspace === undefined) throw new Error("the server was not initialized");
    return workspace;
  };

  const publish = (project: Project, forced: ReadonlySet<string>): void => {
    const before = published.get(project) ?? new Map<string, string>();
    const now = new Map<string, string>();
    for (const [path, list] of project.diagnosticsByFile()) {
      const diagnostics = list.map((d) => toLspDiagnostic(d, (p) => project.uriOf(p)));
      const key = JSON.stringify(diagnostics);
      now.set(path, key);
      if (before.get(path) !== key || forced.has(path)) void connection.sendDiagnostics({ uri: project.uriOf(path), diagnostics });
    }
    // A file that left the build (deleted, moved): its diagnostics go with it.
    for (const path of before.keys()) if (!now.has(path)) void connection.sendDiagnostics({ uri: project.uriOf(path), diagnostics: [] });
    published.set(project, now);
    publishConfig(project);
  };

  const publishConfig = (project: Project): void => {
    const uri = configUri(project);
    const open = documents.get(uri);
    const diagnostics = configDiagnostics(project, open?.getText());
    if (diagnostics !== undefined) void connection.sendDiagnostics({ uri, diagnostics });
    const schemaUri = schemaUriOf(project);
    if (associations.get(uri) !== schemaUri && project.lastGoodModel !== undefined) {
      associations.set(uri, schemaUri);
      void connection.sendNotification(SCHEMA_ASSOCIATIONS, { associations: [...associations].map(([file, schema]) => ({ fileMatch: [file], uri: schema })) });
    }
  };

  const configUri = (project: Project): string => project.uriOf(CONFIG_FILE);

  /** The `.wow` document at `uri`: its project and path, its text now, and its parsed file after a run that includes it. */
  const locate = (uri: string): { project: Project; path: string; file: WowFile } | undefined => {
    if (!uri.startsWith("file:") || !uri.endsWith(".wow")) return undefined;
    const absolute = fileURLToPath(uri);
    const project = ws().projectOf(absolute);
    ws().flush(project);
    const path = project.relativePath(absolute);
    const file = project.file(path);
    return file === undefined ? undefined : { project, path, file };
  };

  connection.onInitialize((params): InitializeResult => {
    const init = (params.initializationOptions ?? {}) as { debounceMs?: unknown; now?: unknown };
    if (typeof init.now === "number") {
      const fixed = init.now;
      now = () => fixed;
    }
    const debounceMs = typeof init.debounceMs === "number" && init.debounceMs >= 0 ? init.debounceMs : (options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
    workspace = new Workspace({
      debounceMs,
      onBuilt: publish,
      onError: (error) => connection.console.error(`wowc: error WOW9999: Internal compiler error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    });
    const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri === null || params.rootUri === undefined ? [] : [params.rootUri]);
    workspace.setFolders(folders.filter((uri) => uri.startsWith("file:")).map((uri) => fileURLToPath(uri)));
    watchRegistration = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentHighlightProvider: true,
        renameProvider: { prepareProvider: true },
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        documentFormattingProvider: true,
        documentRangeFormattingProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        completionProvider: { triggerCharacters: [...TRIGGER_CHARACTERS] },
      },
      serverInfo: { name: "wowc", version: version() },
    };
  });

  connection.onInitialized(() => {
    if (watchRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: "**/*.wow" }, { globPattern: `**/${CONFIG_FILE}` }, { globPattern: "**/package.json" }],
      });
    }
    // Every build of the workspace, compiled once: workspace symbols and diagnostics of files not open.
    for (const folder of ws().workspaceFolders) {
      for (const path of findSources(folder, undefined, [])) ws().projectOf(`${folder}/${path}`);
    }
    for (const project of ws().all) ws().flush(project);
  });

  documents.onDidChangeContent(({ document }) => {
    const uri = document.uri;
    if (!uri.startsWith("file:")) return;
    const absolute = fileURLToPath(uri);
    if (uri.endsWith(".wow")) {
      const project = ws().projectOf(absolute);
      project.setText(project.relativePath(absolute), uri, document.getText());
      ws().schedule(project);
    } else if (uri.endsWith(`/${CONFIG_FILE}`)) {
      publishConfig(ws().projectOf(absolute));
    }
  });

  documents.onDidClose(({ document }) => {
    const uri = document.uri;
    if (!uri.startsWith("file:")) return;
    const absolute = fileURLToPath(uri);
    const project = ws().projectOf(absolute);
    if (uri.endsWith(".wow")) {
      project.setText(project.relativePath(absolute), uri, undefined);
      ws().schedule(project);
    } else if (uri.endsWith(`/${CONFIG_FILE}`)) publishConfig(project);
  });

  connection.onDidChangeWatchedFiles(({ changes }) => {
    const touched = new Set<Project>();
    for (const change of changes) {
      if (!change.uri.startsWith("file:")) continue;
      const absolute = fileURLToPath(change.uri);
      if (change.uri.endsWith("/package.json") || (change.uri.endsWith(`/${CONFIG_FILE}`) && change.type !== FileChangeType.Changed)) ws().forgetMarkers();
      const project = ws().projectOf(absolute);
      if (change.uri.endsWith(`/${CONFIG_FILE}`)) publishConfig(project);
      if (!change.uri.endsWith(".wow")) continue;
      const path = project.relativePath(absolute);
      if (project.isOpen(path)) continue; // the editor's text wins over the disk's
      project.touch(path);
      touched.add(project);
    }
    for (const project of touched) ws().schedule(project);
  });

  connection.onRequest(CONFIG_SCHEMA_REQUEST, (params: { uri?: string }) => {
    const project = ws().all.find((p) => params.uri === undefined || schemaUriOf(p) === params.uri || configUri(p) === params.uri);
    return project === undefined ? null : configSchemaOf(project);
  });

  connection.onHover(({ textDocument, position }) => {
    const at = locate(textDocument.uri);
    return at === undefined ? null : hover(at.project, at.file, toOffset(at.file.file, position), { now });
  });
  connection.onDefinition(({ textDocument, position }) => {
    const at = locate(textDocument.uri);
    return at === undefined ? null : definition(at.project, at.path, toOffset(at.file.file, position));
  });
  connection.onReferences(({ textDocument, position, context }) => {
    const at = locate(textDocument.uri);
    return at === undefined ? null : references(at.project, at.path, toOffset(at.file.file, position), context.includeDeclaration);
  });
  connection.onDocumentHighlight(({ textDocument, position }) => {
    const at = locate(textDocument.uri);
    return at === undefined ? null : highlights(at.project, at.path, toOffset(at.file.file, position));
  });
  connection.onPrepareRename(({ textDocument, position }) => {
    const at = locate(textDocument.uri);
    return at === undefined ? null : prepareRename(at.project, at.path, toOffset(at.file.file, position));
  });
  connection.onRenameRequest(({ textDocument, position, newName }) => {
    const at = locate(textDocument.uri);
    return at === undefined ? null : rename(at.project, at.path, toOffset(at.file.file, position), newName);
  });
  connection.onDocumentSymbol(({ textDocument }) => {
    const at = locate(textDocument.uri);
    return at === undefined ? null : documentSymbols(at.file);
  });
  connection.onWorkspaceSymbol(({ query }) => {
    for (const project of ws().all) ws().flush(project);
    return workspaceSymbols(ws().all, query);
  });
  connection.onDocumentFormatting(({ textDocument }) => {
    const document = documents.get(textDocument.uri);
    return document === undefined ? null : formatDocument(document);
  });
  connection.onDocumentRangeFormatting(({ textDocument, range }) => {
    const document = documents.get(textDocument.uri);
    return document === undefined ? null : formatRange(document, range);
  });
  connection.onCodeAction(({ textDocument, context }) => {
    const document = documents.get(textDocument.uri);
    if (document !== undefined && textDocument.uri.endsWith(`/${CONFIG_FILE}`)) return didYouMean(textDocument.uri, { path: CONFIG_FILE, text: document.getText() }, context.diagnostics);
    const at = locate(textDocument.uri);
    return at === undefined ? null : codeActions(at.project, at.file, context.diagnostics);
  });
  connection.onCompletion(({ textDocument, position }) => {
    const document = documents.get(textDocument.uri);
    if (document === undefined || !textDocument.uri.endsWith(".wow")) return null;
    const absolute = fileURLToPath(textDocument.uri);
    const project = ws().projectOf(absolute);
    // Names come from the last run (an edit waiting for its run changes few); the position from the text now.
    if (project.last === undefined) ws().flush(project);
    return complete(project, { path: project.relativePath(absolute), text: document.getText() }, document.offsetAt(position));
  });

  connection.onShutdown(() => workspace?.dispose());
  documents.listen(connection);
  connection.listen();
}

function version(): string {
  try {
    return (JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
}
