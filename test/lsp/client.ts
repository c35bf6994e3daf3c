// A real JSON-RPC client (vscode-jsonrpc) for `wowc lsp` started as a child process over stdio,
// from the sources through tsx (so the tests run what the tree holds, built or not). Waits are
// event-driven: a notification the server sends, or a timeout that fails the test.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from "vscode-jsonrpc/node";

const repo = fileURLToPath(new URL("../../", import.meta.url));

export interface PublishedDiagnostics {
  readonly uri: string;
  readonly diagnostics: ReadonlyArray<{
    readonly range: { readonly start: { line: number; character: number }; readonly end: { line: number; character: number } };
    readonly severity: number;
    readonly code: string;
    readonly message: string;
    readonly source: string;
    readonly data?: unknown;
    readonly relatedInformation?: ReadonlyArray<{ location: { uri: string; range: unknown }; message: string }>;
  }>;
}

/** A copy of examples/eshop in a temporary directory (tests never write into the tree). */
export function copyExample(): string {
  const dir = mkdtempSync(join(tmpdir(), "wowc-lsp-"));
  cpSync(join(repo, "examples/eshop"), dir, { recursive: true, filter: (src) => !/[\\/](generated|data|node_modules)([\\/]|$)/.test(src.slice(join(repo, "examples/eshop").length)) });
  return dir;
}

export const uriOf = (path: string): string => pathToFileURL(path).href;

export interface Position {
  readonly line: number;
  readonly character: number;
}
export interface Range {
  readonly start: Position;
  readonly end: Position;
}
export interface TextEdit {
  readonly range: Range;
  readonly newText: string;
}

/** `{ start: line:character, end: line:character }`, 0-based as the protocol counts. */
export const range = (line: number, start: number, endLine: number, end: number): Range => ({ start: { line, character: start }, end: { line: endLine, character: end } });

function compare(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

export function offsetAt(text: string, position: Position): number {
  let offset = 0;
  for (let line = 0; line < position.line; line++) {
    const next = text.indexOf("\n", offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset + position.character;
}

export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length - 1, character: before[before.length - 1]!.length };
}

/** Applies a WorkspaceEdit's edits of one document to its text. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => compare(b.range.start, a.range.start))) out = out.slice(0, offsetAt(out, e.range.start)) + e.newText + out.slice(offsetAt(out, e.range.end));
  return out;
}

export class LspClient {
  readonly connection: MessageConnection;
  private readonly child: ChildProcess;
  /** Every publishDiagnostics, in order. */
  readonly published: PublishedDiagnostics[] = [];
  readonly notifications: Array<{ method: string; params: unknown }> = [];
  private readonly waiters: Array<() => void> = [];
  private stderr = "";
  private versions = new Map<string, number>();
  /** The text of each open document, as the client holds it. */
  private readonly texts = new Map<string, string>();

  /** `built`: run dist/ (the benchmark: what users run) instead of the sources. */
  constructor(options: { readonly args?: readonly string[]; readonly built?: boolean } = {}) {
    const main = options.built === true ? [join(repo, "dist/compiler/cli/main.js")] : ["--import", "tsx", join(repo, "compiler/cli/main.ts")];
    this.child = spawn(process.execPath, [...main, "lsp", "--stdio", ...(options.args ?? [])], { cwd: repo, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stderr!.on("data", (chunk: Buffer) => void (this.stderr += chunk.toString()));
    this.connection = createMessageConnection(new StreamMessageReader(this.child.stdout!), new StreamMessageWriter(this.child.stdin!));
    this.connection.onNotification((method, params) => {
      if (method === "textDocument/publishDiagnostics") this.published.push(params as PublishedDiagnostics);
      this.notifications.push({ method, params });
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.connection.onRequest(() => null); // client/registerCapability and the like
    this.connection.listen();
  }

  async initialize(root: string, initializationOptions: Record<string, unknown> = {}): Promise<{ capabilities: Record<string, unknown>; serverInfo?: { name: string } }> {
    const result = await this.connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri: uriOf(root),
      workspaceFolders: [{ uri: uriOf(root), name: "root" }],
      capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: false } }, textDocument: { publishDiagnostics: { relatedInformation: true } } },
      initializationOptions,
    });
    await this.connection.sendNotification("initialized", {});
    return result as { capabilities: Record<string, unknown> };
  }

  /** Waits until `pick` finds something among what was received (checked now and at every notification). */
  async until<T>(what: string, pick: () => T | undefined, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = pick();
      if (found !== undefined) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; server stderr:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The next diagnostics published for `uri` after `from` (an index into `published`) that satisfy `accept`. */
  diagnostics(uri: string, from: number, accept: (d: PublishedDiagnostics) => boolean = () => true): Promise<PublishedDiagnostics> {
    return this.until(`diagnostics of ${uri}`, () => this.published.slice(from).find((p) => p.uri === uri && accept(p)));
  }

  /** The latest diagnostics published for `uri`. */
  latest(uri: string): PublishedDiagnostics | undefined {
    return [...this.published].reverse().find((p) => p.uri === uri);
  }

  async open(path: string): Promise<string> {
    const uri = uriOf(path);
    this.versions.set(uri, 1);
    const text = readFileSync(path, "utf8");
    this.texts.set(uri, text);
    await this.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: path.endsWith(".json") ? "json" : "wow", version: 1, text } });
    return uri;
  }

  text(uri: string): string {
    const text = this.texts.get(uri);
    if (text === undefined) throw new Error(`${uri} is not open`);
    return text;
  }

  /** Applies edits (as a server sends them: ranges in the text before any of them) and sends them as one change each, last first. */
  async edit(uri: string, edits: readonly TextEdit[]): Promise<void> {
    const sorted = [...edits].sort((a, b) => compare(b.range.start, a.range.start));
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    let text = this.text(uri);
    for (const e of sorted) text = text.slice(0, offsetAt(text, e.range.start)) + e.newText + text.slice(offsetAt(text, e.range.end));
    this.texts.set(uri, text);
    await this.connection.sendNotification("textDocument/didChange", { textDocument: { uri, version }, contentChanges: sorted.map((e) => ({ range: e.range, text: e.newText })) });
  }

  /** Replaces the first occurrence of `from` (after `after`, when given) with `to`. */
  async replace(uri: string, from: string, to: string, after = ""): Promise<void> {
    const text = this.text(uri);
    const start = text.indexOf(from, after === "" ? 0 : text.indexOf(after) + after.length);
    if (start < 0) throw new Error(`'${from}' is not in ${uri}`);
    await this.edit(uri, [{ range: { start: positionAt(text, start), end: positionAt(text, start + from.length) }, newText: to }]);
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.connection.sendRequest(method, params) as Promise<T>;
  }

  async close(): Promise<void> {
    const exited = new Promise<number | null>((resolve) => this.child.once("exit", (code) => resolve(code)));
    try {
      await this.connection.sendRequest("shutdown");
      await this.connection.sendNotification("exit");
    } catch {
      this.child.kill();
    }
    await exited;
    this.connection.dispose();
  }
}
