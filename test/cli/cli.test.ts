// `wowc` in-process through runCli: commands, exit codes, output formats, --warn-as-error,
// --help/--version and the internal-error path (an injected fault).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli } from "../../compiler/cli/run-cli.js";
import type { PhaseName } from "../../compiler/program/phases.js";
import { tempDir } from "../compiler/build-cases.js";

const example = fileURLToPath(new URL("../../examples/eshop/", import.meta.url));

async function wowc(argv: string[], options: { cwd?: string; env?: Record<string, string>; onPhase?: (p: PhaseName) => void } = {}) {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    cwd: options.cwd ?? process.cwd(),
    env: options.env ?? {},
    ...(options.onPhase === undefined ? {} : { onPhase: options.onPhase }),
  });
  return { code, stdout, stderr };
}

function project(files: Record<string, string>): string {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  return root;
}

const clean = "context shop\naggregate A {\n  command C {}\n  event E {}\n  @OnCommand(produces = [E])\n  on C\n}\n";
const warning = "context shop\naggregate A {\n  command C {}\n  event E {}\n  event Unused {}\n  @OnCommand(produces = [E])\n  on C\n}\n";
const broken = "context shop\ntype T { x: strng }\n";

describe("wowc CLI", () => {
  it("builds the example and writes the manifest once", async () => {
    const out = tempDir();
    const first = await wowc(["build", example, "--out", out]);
    expect(first).toMatchObject({ code: 0, stderr: "" });
    expect(first.stdout).toMatch(/^Wrote 15 files to .* \(from 2 files\) in \d+ ms\.\n$/);
    expect((await wowc(["build", "--check", example, "--out", out])).code).toBe(0);
    writeFileSync(join(out, "sdk.ts"), "// edited\n");
    writeFileSync(join(out, ".wowc-files"), `${readFileSync(join(out, ".wowc-files"), "utf8")}old/gone.ts\n`);
    mkdirSync(join(out, "old"), { recursive: true });
    writeFileSync(join(out, "old/gone.ts"), "// stale\n");
    writeFileSync(join(out, "mine.ts"), "// not generated: never touched\n");
    const check = await wowc(["build", "--check", example, "--out", out]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/2 generated files are out of date[\s\S]*sdk\.ts\n.*old\/gone\.ts \(no longer generated\)\n$/);
    expect(readFileSync(join(out, "sdk.ts"), "utf8")).toBe("// edited\n");
    const rebuilt = await wowc(["build", example, "--out", out]);
    expect(rebuilt.stdout).toMatch(/^Wrote 1 file to .*, deleted 1 stale/);
    expect(() => readFileSync(join(out, "old/gone.ts"))).toThrow();
    expect(readFileSync(join(out, "mine.ts"), "utf8")).toContain("never touched");
    expect(readFileSync(join(out, "wow-manifest.json"), "utf8")).toContain('"eshop-order"');
    const again = await wowc(["build", example, "--out", out]);
    expect(again.stdout).toMatch(/is up to date/);
  });

  it("defaults the output to <dir>/generated, and check writes nothing", async () => {
    const root = project({ "a.wow": clean });
    expect((await wowc(["check"], { cwd: root })).code).toBe(0);
    expect(() => readFileSync(join(root, "generated", "wow-manifest.json"))).toThrow();
    expect((await wowc(["build"], { cwd: root })).code).toBe(0);
    expect(readFileSync(join(root, "generated", "wow-manifest.json"), "utf8")).toContain('"shop"');
  });

  it("exits 1 with text diagnostics, a code frame and a summary", async () => {
    const root = project({ "a.wow": broken });
    const { code, stdout } = await wowc(["check", root]);
    expect(code).toBe(1);
    expect(stdout).toContain("a.wow:2:13 - error WOW2001: Unknown type 'strng'.");
    expect(stdout).toContain("2 type T { x: strng }\n              ~~~~~\n");
    expect(stdout).toContain("hint: Did you mean 'string'?");
    expect(stdout.trimEnd().split("\n").at(-1)).toBe("Found 1 error.");
    expect(stdout).not.toContain("\x1b[");
  });

  it("prints JSON with --format json (only JSON on stdout)", async () => {
    const root = project({ "a.wow": broken });
    const { code, stdout } = await wowc(["check", root, "--format", "json"]);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toEqual({
      diagnostics: [
        {
          code: "WOW2001",
          severity: "error",
          message: "Unknown type 'strng'.",
          file: "a.wow",
          line: 2,
          column: 13,
          endLine: 2,
          endColumn: 18,
          hint: expect.stringContaining("Did you mean 'string'?"),
        },
      ],
    });
  });

  it("treats warnings as errors with --warn-as-error (and then writes nothing)", async () => {
    const root = project({ "a.wow": warning });
    const relaxed = await wowc(["build", root]);
    expect(relaxed.code).toBe(0);
    expect(relaxed.stdout).toContain("warning WOW3008");
    const strict = await wowc(["build", root, "--out", join(root, "strict"), "--warn-as-error", "--format=json"]);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout).diagnostics[0]).toMatchObject({ code: "WOW3008", severity: "error" });
    expect(() => readFileSync(join(root, "strict", "wow-manifest.json"))).toThrow();
  });

  it("colours only when asked or on a TTY", async () => {
    const root = project({ "a.wow": broken });
    expect((await wowc(["check", root, "--color"])).stdout).toContain("\x1b[31merror");
  });

  it("prints phase timings with --stats", async () => {
    const { stdout } = await wowc(["check", example, "--stats"]);
    for (const phase of ["load", "parse", "bind", "check", "total"]) expect(stdout).toMatch(new RegExp(`^  ${phase} +[0-9.]+ ms$`, "m"));
  });

  it("--help and --version exit 0", async () => {
    const help = await wowc(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("wowc build [dir] [--out <dir>]");
    const version = await wowc(["--version"]);
    expect(version).toMatchObject({ code: 0, stdout: `${JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version}\n` });
  });

  it.each([
    [["frobnicate"], "Unknown command 'frobnicate'"],
    [["check", "--format", "xml"], "--format is 'text' or 'json'"],
    [["check", "--bogus"], "Unknown option '--bogus'"],
    [["build", "--out"], "--out needs a value"],
    [["check", "/no/such/dir"], "is not a directory"],
    [[], "Usage:"],
  ])("usage error %j exits 2", async (argv, message) => {
    const { code, stderr, stdout } = await wowc(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stdout).toBe("");
  });

  it("reports an empty directory as WOW6001 (exit 1)", async () => {
    const { code, stdout } = await wowc(["check", tempDir()]);
    expect(code).toBe(1);
    expect(stdout).toContain("error WOW6001: No .wow files found");
  });

  it("an internal error is one line with WOW9999, exit 2, no stack trace", async () => {
    const fault = (phase: PhaseName) => {
      if (phase === "check") throw new Error("injected fault");
    };
    const { code, stdout, stderr } = await wowc(["check", example], { onPhase: fault });
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(stderr).toContain("WOW9999");
    expect(stderr).toContain("injected fault");
    expect(stderr).not.toMatch(/\n\s+at /);
    const debug = await wowc(["check", example], { onPhase: fault, env: { WOWC_DEBUG: "1" } });
    expect(debug.stderr).toMatch(/\n\s+at /);
  });

  it("`wowc cron` is routed to the cron command", async () => {
    const { code, stderr } = await wowc(["cron", "--help"]);
    expect([0, 2]).toContain(code);
    if (code === 2) expect(stderr).toContain("wowc cron");
  });

  it("skips the output directory when it lies under the sources", async () => {
    const root = project({ "a.wow": clean });
    mkdirSync(join(root, "generated"));
    writeFileSync(join(root, "generated", "stale.wow"), "not wow at all");
    expect((await wowc(["check", root])).code).toBe(0);
  });
});
