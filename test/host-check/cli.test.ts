// `wowc check --host <tsconfig>` on the command line: JSON output, exit status, usage errors.
import { describe, expect, it } from "vitest";
import { runCli } from "../../compiler/cli/run-cli.js";
import { build } from "../../compiler/program/build.js";
import { hostCases } from "./cases.js";
import { writeFixture } from "./fixture.js";

function io(cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { cwd, stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) } };
}

describe("wowc check --host (CLI)", () => {
  it("prints the host's diagnostics as JSON at the TypeScript location and exits 1 on an error", async () => {
    const root = writeFixture(hostCases.find((c) => c.code === "WOW5001")!);
    build({ root, write: true });
    const run = io(root);
    const status = await runCli(["check", "--host", "tsconfig.json", "--format", "json", "."], run.io);
    expect(status).toBe(1);
    const { diagnostics } = JSON.parse(run.out.join("")) as { diagnostics: { code: string; file: string; line: number; column: number }[] };
    expect(diagnostics.map((d) => `${d.file} ${d.code} ${d.line}:${d.column}`)).toEqual(["src/order.ts WOW5001 13:55"]);
  }, 180_000);

  it("on a terminal, says what it is doing while it reads the project, clears the line, and --stats shows its phase", async () => {
    const root = writeFixture(hostCases.find((c) => c.code === "WOW5001")!);
    build({ root, write: true });
    const tty = io(root);
    const status = await runCli(["check", "--host", "tsconfig.json", "--stats", "."], { ...tty.io, isTTY: true, env: { NO_COLOR: "1" } });
    expect(status).toBe(1);
    const err = tty.err.join("");
    expect(err).toContain("wowc check --host: reading the TypeScript project tsconfig.json…");
    expect(err).toMatch(/checking \d+ implementations? against the declarations… \(\d+\.\d s\)/);
    expect(err.endsWith("\r\x1b[2K")).toBe(true);
    expect(tty.out.join("")).toMatch(/^ {2}host +\d+\.\d ms$/m);
    // In a pipe: no progress line.
    const piped = io(root);
    await runCli(["check", "--host", "tsconfig.json", "."], piped.io);
    expect(piped.err.join("")).not.toContain("reading the TypeScript project");
  }, 180_000);

  it("takes --host only with wowc check", async () => {
    const run = io(process.cwd());
    expect(await runCli(["build", "--host", "tsconfig.json"], run.io)).toBe(2);
    expect(run.err.join("")).toContain("--host goes with `wowc check`");
  });
});
