// `wowc` at the edges a user meets: unreadable and linked sources, the output directory it owns,
// failed writes, JSON on every path, option parsing, control characters in code frames.
import * as fs from "node:fs";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runCli } from "../../compiler/cli/run-cli.js";
import { tempDir } from "../compiler/build-cases.js";

/**
 * Paths that cannot be read (listed) or written, with EACCES. Permissions do not stop root (these
 * tests may run as root), so the failure is injected at the `node:fs` boundary; as another user the
 * tests also really take the permission away.
 */
const denied = { read: new Set<string>(), write: new Set<string>() };
const isRoot = process.getuid?.() === 0;

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  const guard = <F extends (...args: never[]) => unknown>(access: "read" | "write", call: string, f: F): F =>
    ((...args: Parameters<F>) => {
      const path = args[0] as unknown;
      if (typeof path === "string" && [...denied[access]].some((d) => path === d || path.startsWith(`${d}/`))) {
        throw Object.assign(new Error(`EACCES: permission denied, ${call} '${path}'`), { code: "EACCES" });
      }
      return f(...args);
    }) as F;
  return {
    ...real,
    readdirSync: guard("read", "scandir", real.readdirSync),
    readFileSync: guard("read", "open", real.readFileSync),
    writeFileSync: guard("write", "open", real.writeFileSync),
    openSync: guard("write", "open", real.openSync),
    mkdirSync: guard("write", "mkdir", real.mkdirSync),
    copyFileSync: guard("write", "copyfile", real.copyFileSync),
    renameSync: guard("write", "rename", real.renameSync),
  };
});

afterEach(() => {
  denied.read.clear();
  denied.write.clear();
});

/** Takes the permission to read (and write) or only to write `path` away: really (when not root) and at the fs boundary. */
function deny(path: string, access: "read" | "write" = "read"): void {
  denied.write.add(path);
  if (access === "read") denied.read.add(path);
  if (!isRoot) chmodSync(path, access === "read" ? 0o000 : 0o555);
}

async function wowc(argv: string[], cwd = process.cwd()) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd, env: {} });
  return { code, stdout, stderr };
}

function project(files: Record<string, string>): string {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const clean = "context shop\naggregate A {\n  command C {}\n  event E {}\n  @OnCommand(produces = [E])\n  on C\n}\n";
const other = "context shop\naggregate B {\n  command D {}\n  event F {}\n  @OnCommand(produces = [F])\n  on D\n}\n";

describe("source discovery", () => {
  it("C1: an unreadable subdirectory is a located WOW6002 (exit 1), and the other sources are still checked", async () => {
    const root = project({ "a.wow": clean, "locked/b.wow": other, "c.wow": "context shop\ntype T { x: strng }\n" });
    deny(join(root, "locked"));
    const { code, stdout, stderr } = await wowc(["check", root]);
    expect(stderr).toBe("");
    expect(code).toBe(1);
    expect(stdout).toContain("error WOW6002: Cannot read 'locked': permission denied.");
    expect(stdout).toContain("c.wow:2:13 - error WOW2001"); // the walk went on
    chmodSync(join(root, "locked"), 0o755);
  });

  it("C1: in fmt too, an unreadable subdirectory is a WOW6002 named from the working directory (exit 1), and the other files are formatted", async () => {
    const root = project({ "src/a.wow": "context shop\ntype   T {  x: int }\n", "src/locked/b.wow": other });
    deny(join(root, "src/locked"));
    const { code, stdout, stderr } = await wowc(["fmt", "src"], root);
    expect(code).toBe(1);
    expect(stdout).toContain("error WOW6002: Cannot read 'src/locked': permission denied.");
    expect(stdout).toContain("Formatted src/a.wow");
    expect(stderr).not.toContain("WOW9999");
    expect(readFileSync(join(root, "src/a.wow"), "utf8")).toBe("context shop\n\ntype T { x: int }\n");
    chmodSync(join(root, "src/locked"), 0o755);
  });

  it("C12: WOW6002 names the file it could not read in JSON", async () => {
    const root = project({ "a.wow": clean, "b.wow": other });
    deny(join(root, "b.wow"));
    const { code, stdout } = await wowc(["check", root, "--format", "json"]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).diagnostics).toEqual([expect.objectContaining({ code: "WOW6002", file: "b.wow", line: null })]);
    chmodSync(join(root, "b.wow"), 0o644);
  });

  it("C4: follows linked .wow files and directories (a link cycle is walked once), in build, check and fmt", async () => {
    const elsewhere = project({ "a.wow": clean, "lib/b.wow": other });
    const root = tempDir();
    symlinkSync(join(elsewhere, "a.wow"), join(root, "a.wow"));
    symlinkSync(join(elsewhere, "lib"), join(root, "lib"));
    symlinkSync(root, join(root, "loop")); // a cycle back to the root
    const checked = await wowc(["check", root]);
    expect(checked).toMatchObject({ code: 0, stderr: "" });
    expect(checked.stdout).toMatch(/^Checked 2 files in/);
    const built = await wowc(["build", root]);
    expect(built.code).toBe(0);
    const manifest = readFileSync(join(root, "generated", "wow-manifest.json"), "utf8");
    expect(manifest).toContain('"B"');
    const fmt = await wowc(["fmt", "--check", "."], root); // the sources are not formatted: both are listed
    expect(fmt.stdout.split("\n").filter((l) => l.endsWith(".wow")).sort()).toEqual(["a.wow", "lib/b.wow"]);
  });

  it("C9: skips the output directory when the root is reached through a link", async () => {
    const real = project({ "a.wow": clean, "generated/stale.wow": "not wow at all" });
    const link = join(tempDir(), "link");
    symlinkSync(real, link);
    const { code, stdout } = await wowc(["check", link, "--out", join(real, "generated")]);
    expect(stdout).not.toContain("stale.wow");
    expect(code).toBe(0);
  });
});

/** Every file under `dir` (relative path → content). */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path.slice(dir.length + 1)] = readFileSync(path, "utf8");
  }
  return files;
}

describe("the output directory", () => {
  it("C2: a file that cannot be written fails the build whole: WOW6003 names it, nothing else changes", async () => {
    const root = project({ "a.wow": clean });
    const out = join(root, "generated");
    expect((await wowc(["build", root])).code).toBe(0);
    writeFileSync(join(root, "b.wow"), other); // the next build changes the manifest and the SDK
    fs.rmSync(join(out, "shop", "types.ts"));
    mkdirSync(join(out, "shop", "types.ts")); // a directory in the way of one generated file
    const before = snapshot(out);
    const { code, stdout } = await wowc(["build", root]);
    expect(code).toBe(2);
    expect(stdout).toMatch(/error WOW6003: Cannot write '[^']*generated\/shop\/types\.ts': it is a directory\./);
    expect(snapshot(out)).toEqual(before); // old manifest and old SDK, no staged leftovers
  });

  it("C2: an output directory it may not write is WOW6003 on a file in it, and nothing changes", async () => {
    const root = project({ "a.wow": clean });
    const out = join(root, "generated");
    expect((await wowc(["build", root])).code).toBe(0);
    writeFileSync(join(root, "b.wow"), other);
    const before = snapshot(out);
    deny(out, "write");
    const { code, stdout } = await wowc(["build", root]);
    denied.write.clear();
    if (!isRoot) chmodSync(out, 0o755);
    expect(code).toBe(2);
    expect(stdout).toMatch(/error WOW6003: Cannot write '[^']*generated\/[^']+': permission denied\./);
    expect(snapshot(out)).toEqual(before);
  });

  it("a rewritten file keeps the mode it had (a generated file made read-only stays read-only)", async () => {
    const root = project({ "a.wow": clean });
    const manifest = join(root, "generated", "wow-manifest.json");
    expect((await wowc(["build", root])).code).toBe(0);
    chmodSync(manifest, 0o444);
    writeFileSync(join(root, "b.wow"), other);
    expect((await wowc(["build", root])).code).toBe(0);
    expect(readFileSync(manifest, "utf8")).toContain('"B"');
    expect(fs.statSync(manifest).mode & 0o777).toBe(0o444);
  });

  it("C3: refuses an output directory holding files it did not write (WOW6005, exit 2), touching nothing", async () => {
    const root = project({ "a.wow": clean, "mine/index.ts": "// my own code\n", "mine/notes.md": "notes\n" });
    const { code, stdout } = await wowc(["build", root, "--out", join(root, "mine")]);
    expect(code).toBe(2);
    expect(stdout).toMatch(/error WOW6005: The output directory '[^']*mine' holds files wowc did not write \(such as 'index\.ts'\)/);
    expect(snapshot(join(root, "mine"))).toEqual({ "index.ts": "// my own code\n", "notes.md": "notes\n" });
  });

  it("C3: writes into a missing, empty (hidden files aside) or earlier output directory, keeping files it did not generate", async () => {
    const root = project({ "a.wow": clean, "out/.gitignore": "*\n" });
    expect((await wowc(["build", root, "--out", join(root, "out")])).code).toBe(0);
    writeFileSync(join(root, "out", "notes.md"), "mine\n");
    writeFileSync(join(root, "b.wow"), other);
    expect((await wowc(["build", root, "--out", join(root, "out")])).code).toBe(0);
    expect(readFileSync(join(root, "out", "notes.md"), "utf8")).toBe("mine\n");
    expect(existsSync(join(root, "out", "wow-manifest.json"))).toBe(true);
  });
});

describe("the command line", () => {
  it("C10: --out naming a file is a clear usage error (exit 2), not a raw ENOTDIR", async () => {
    const root = project({ "a.wow": clean, "out.txt": "a file\n" });
    const { code, stdout, stderr } = await wowc(["build", ".", "--out", "out.txt"], root);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("wowc: --out 'out.txt' is a file, not a directory.");
    expect(stderr).not.toContain("ENOTDIR");
    expect(readFileSync(join(root, "out.txt"), "utf8")).toBe("a file\n");
  });

  it.each([[["build", "--out="]], [["build", "--out", ""]], [["check", "--format="]], [["build", ""]]])("C6: an empty value %j is a usage error (exit 2), nothing written", async (argv) => {
    const root = project({ "a.wow": clean });
    const { code, stderr } = await wowc(argv, root);
    expect(code).toBe(2);
    expect(stderr).toMatch(/needs a value|not an empty argument/);
    expect(snapshot(root)).toEqual({ "a.wow": clean });
  });

  it.each([
    [["check", "--bogus", "--format", "json"], "Unknown option '--bogus'."],
    [["check", "/no/such/dir", "--format=json"], "'/no/such/dir' is not a directory."],
  ])("C5: with --format json, the usage error %j is a JSON diagnostic on stdout too (exit 2)", async (argv, detail) => {
    const { code, stdout, stderr } = await wowc(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(detail);
    expect(JSON.parse(stdout)).toEqual({
      diagnostics: [expect.objectContaining({ code: "WOW6006", severity: "error", message: `Invalid command line: ${detail}`, file: null })],
    });
  });

  it("C5: with --format json, an internal error is a JSON diagnostic (WOW9999) on stdout too", async () => {
    const root = project({ "a.wow": clean });
    let stdout = "";
    const code = await runCli(["check", root, "--format", "json"], {
      stdout: (t) => void (stdout += t),
      stderr: () => undefined,
      cwd: root,
      env: {},
      onPhase: (phase) => {
        if (phase === "check") throw new Error("injected fault");
      },
    });
    expect(code).toBe(2);
    expect(JSON.parse(stdout).diagnostics).toEqual([expect.objectContaining({ code: "WOW9999", message: "Internal compiler error: injected fault", file: null })]);
  });

  it("C8: options before a tool command reach it: honoured when it has them, refused when not", async () => {
    const cron = await wowc(["--format", "json", "cron", "0 0 9 * * *", "--from", "2025-01-01T00:00:00Z", "--count", "1"]);
    expect(cron.code).toBe(0);
    expect(JSON.parse(cron.stdout)).toMatchObject({ expression: "0 0 9 * * *", next: [{ utc: "2025-01-01T09:00:00.000Z" }] });
    const root = project({ "a.wow": clean });
    const fmt = await wowc(["--stats", "fmt", "--check"], root);
    expect(fmt.code).toBe(2);
    expect(fmt.stderr).toContain("'--stats'");
  });

  it("C13: `--` ends the options: a later argument starting with '-' is the directory", async () => {
    const parent = tempDir();
    mkdirSync(join(parent, "-src"));
    writeFileSync(join(parent, "-src", "a.wow"), clean);
    const { code, stdout, stderr } = await wowc(["check", "--", "-src"], parent);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Checked 1 file in/);
    expect((await wowc(["check", "--", "-src", "--stats"], parent)).stderr).toContain("Unexpected argument '--stats'");
  });
});

describe("code frames", () => {
  it("C11: control characters of a source line are shown as visible characters, the marker still lined up", async () => {
    const root = project({ "a.wow": "context shop\ntype T { /*\x1b[2J\x07*/ x: strng }\n" });
    const { code, stdout } = await wowc(["check", root]);
    expect(code).toBe(1);
    expect(stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(stdout).toContain(`2 type T { /*\u241b[2J\u2407*/ x: strng }\n${" ".repeat(24)}~~~~~\n`);
  });
});

describe("control characters outside the code frame", () => {
  it("a file name and a string's value with ESC or BEL reach the terminal as visible characters", async () => {
    const root = project({ "a\x1b[31m.wow": 'context shop\nsaga S {\n  @OnSchedule(cron = "0 0 * * * *", zone = "Mars/\x1b[2J\x07")\n  job tick\n}\n' });
    const { code, stdout } = await wowc(["check", root]);
    expect(code).toBe(1);
    expect(stdout).toContain("WOW4006");
    expect(stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(stdout).toContain("a\u241b[31m.wow:3:");
  });
});

describe("paths in the output", () => {
  it("C14: text diagnostics name files relative to the working directory, as the other paths printed; JSON relative to the build root", async () => {
    const parent = project({ "sub/a.wow": "context shop\ntype T { x: strng }\n" });
    const text = await wowc(["build", "sub"], parent);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^sub\/a\.wow:2:13 - error WOW2001/);
    expect(text.stdout).toContain("Build failed: sub/generated/wow-manifest.json was not written.");
    const json = await wowc(["build", "sub", "--format", "json"], parent);
    expect(JSON.parse(json.stdout).diagnostics[0].file).toBe("a.wow");
  });
});
