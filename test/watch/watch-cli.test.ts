// `wowc build --watch` as a process: builds, rebuilds on an edit, prints each time, stops on SIGINT.
// Then what editors and shells do to files under a running watcher — saves through a temp file and
// a rename, directories renamed or moved out of the tree — each awaited with a bounded poll.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { scratchDir } from "../tools/run-wowc.js";

const main = fileURLToPath(new URL("../../compiler/cli/main.ts", import.meta.url));
const text = "context shop\n\naggregate A {\n  command C {}\n  event E {}\n\n  @OnCommand(produces = [E])\n  on C\n}\n";

/** A context `name` whose command `Do` has the extra field `field` (when given). */
const wow = (name: string, field?: string) =>
  `context ${name}\n\naggregate A {\n  state { n: int }\n  command Do { n: int${field === undefined ? "" : `, ${field}: int`} }\n  event Done { n: int }\n  @OnCommand(produces = [Done])\n  on Do\n}\n`;

/** `wowc build --watch dir` as a child process, with its output so far. */
function watch(dir: string) {
  const child = spawn(process.execPath, ["--import", "tsx", main, "build", "--watch", dir], { stdio: ["ignore", "pipe", "pipe"] });
  const state = { stdout: "" };
  child.stdout.on("data", (chunk: Buffer) => void (state.stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => void (state.stdout += chunk.toString()));
  return { child, state };
}

/** Polls `test` every 20 ms; rejects after `ms` with what `explain` says of the state then. */
async function until(test: () => boolean, explain: () => string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out; ${explain()}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

describe("wowc build --watch (process)", () => {
  it("prints the initial build and each rebuild with its time, and exits 0 on SIGINT", async () => {
    const dir = scratchDir("wowc-watch-cli-");
    writeFileSync(join(dir, "a.wow"), text);
    const child = spawn(process.execPath, ["--import", "tsx", main, "build", "--watch", dir], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    const waiters: Array<{ pattern: RegExp; done: () => void }> = [];
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      for (const w of [...waiters]) if (w.pattern.test(stdout)) waiters.splice(waiters.indexOf(w), 1), w.done();
    });
    const waitFor = (pattern: RegExp) => new Promise<void>((done) => (pattern.test(stdout) ? done() : waiters.push({ pattern, done })));
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));

    await waitFor(/Built in \d+ ms \(1 file; \d+ written\)\. Watching for changes\./);
    writeFileSync(join(dir, "a.wow"), text.replace("command C {}", "command C { note: string? }"));
    await waitFor(/Change: a\.wow\nRebuilt in \d+ ms \(1 of 1 file parsed; \d+ written\)/);
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^Watching .* \(\.wow files and wow\.config\.json\); press Ctrl-C to stop\.\n/);
  });
});

describe("wowc build --watch (process): renames", () => {
  let running: ChildProcess | undefined;
  afterEach(() => {
    running?.kill("SIGINT");
    running = undefined;
  });

  /** A project with `src/a/one.wow` (context one) and `src/c/two.wow` (context two), watched. */
  async function started() {
    const dir = scratchDir("wowc-watch-rename-");
    mkdirSync(join(dir, "src/a"), { recursive: true });
    mkdirSync(join(dir, "src/c"), { recursive: true });
    writeFileSync(join(dir, "src/a/one.wow"), wow("one"));
    writeFileSync(join(dir, "src/c/two.wow"), wow("two"));
    const { child, state } = watch(dir);
    running = child;
    await until(() => /Built in \d+ ms \(2 files; \d+ written\)/.test(state.stdout), () => state.stdout);
    const manifestPath = join(dir, "generated/wow-manifest.json");
    const manifest = () => (existsSync(manifestPath) ? readFileSync(manifestPath, "utf8") : "");
    return { dir, state, manifest };
  }

  it("sees every save made through a temp file and a rename, and in-place edits after them", async () => {
    const { dir, state, manifest } = await started();
    const file = join(dir, "src/a/one.wow");
    for (const field of ["fa", "fb", "fc"]) {
      writeFileSync(`${file}.tmp`, wow("one", field));
      renameSync(`${file}.tmp`, file);
      await until(() => manifest().includes(`"${field}"`), () => `no "${field}" in the manifest; output:\n${state.stdout}`);
    }
    writeFileSync(file, wow("one", "fd"));
    await until(() => manifest().includes('"fd"'), () => `no "fd" in the manifest; output:\n${state.stdout}`);
    expect(state.stdout).not.toMatch(/error/);
  });

  it("a renamed directory: its files are found under the new name, not kept under the old one", async () => {
    const { dir, state, manifest } = await started();
    const before = state.stdout.length;
    renameSync(join(dir, "src/a"), join(dir, "src/b"));
    await until(() => /Change: [^\n]*src\/b\/one\.wow/.test(state.stdout.slice(before)) && /Rebuil(t|d failed) in/.test(state.stdout.slice(before)), () => state.stdout);
    // An edit under the new name is seen (its directory is watched) and builds cleanly.
    writeFileSync(join(dir, "src/b/one.wow"), wow("one", "moved"));
    await until(() => manifest().includes('"moved"'), () => `no "moved" in the manifest; output:\n${state.stdout}`);
    expect(state.stdout.slice(before)).not.toMatch(/declared|error|failed/);
  });

  it("a directory moved out of the tree: its context leaves the manifest", async () => {
    const { dir, state, manifest } = await started();
    expect(manifest()).toContain('"one"');
    const before = state.stdout.length;
    renameSync(join(dir, "src/a"), join(scratchDir("wowc-watch-away-"), "a"));
    const removed = /Change: src\/a\/one\.wow\nRebuilt in \d+ ms \(0 of 1 file parsed; \d+ written, \d+ removed\)/;
    await until(() => !manifest().includes('"one"') && removed.test(state.stdout.slice(before)), () => `context "one" still in the manifest; output:\n${state.stdout}`);
    expect(manifest()).toContain('"two"');
  });
});

describe("wowc build --watch (process): symbolic links", () => {
  let running: ChildProcess | undefined;
  afterEach(() => {
    running?.kill("SIGINT");
    running = undefined;
  });

  it("sees edits behind a linked directory and a linked file, as the build reads them, and a link cycle does not hang it", async () => {
    const elsewhere = scratchDir("wowc-watch-linked-");
    mkdirSync(join(elsewhere, "lib"), { recursive: true });
    writeFileSync(join(elsewhere, "lib/one.wow"), wow("one"));
    writeFileSync(join(elsewhere, "two.wow"), wow("two"));
    const dir = scratchDir("wowc-watch-links-");
    symlinkSync(join(elsewhere, "lib"), join(dir, "lib"));
    symlinkSync(join(elsewhere, "two.wow"), join(dir, "two.wow"));
    symlinkSync(dir, join(dir, "loop"));
    const { child, state } = watch(dir);
    running = child;
    await until(() => /Built in \d+ ms \(2 files; \d+ written\)/.test(state.stdout), () => state.stdout);
    const manifestPath = join(dir, "generated/wow-manifest.json");
    const manifest = () => (existsSync(manifestPath) ? readFileSync(manifestPath, "utf8") : "");
    writeFileSync(join(elsewhere, "lib/one.wow"), wow("one", "viaDir"));
    await until(() => manifest().includes('"viaDir"'), () => `no "viaDir" in the manifest; output:\n${state.stdout}`);
    writeFileSync(join(elsewhere, "two.wow"), wow("two", "viaFile"));
    await until(() => manifest().includes('"viaFile"'), () => `no "viaFile" in the manifest; output:\n${state.stdout}`);
    expect(state.stdout).not.toMatch(/error|failed/);
  });
});
