// `wowc fmt [paths] [--check]` through runCli.
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchDir, wowc } from "../tools/run-wowc.js";

const messy = "context shop\ntype T{a:int,b:string}\n";
const tidy = "context shop\n\ntype T { a: int, b: string }\n";

describe("wowc fmt", () => {
  it("--check lists unformatted files and exits 1; fmt formats them; --check then passes", async () => {
    const dir = scratchDir();
    writeFileSync(join(dir, "a.wow"), messy);
    writeFileSync(join(dir, "b.wow"), tidy);
    const check = await wowc(["fmt", "--check"], dir);
    expect(check).toMatchObject({ code: 1, stdout: "a.wow\n" });
    expect(check.stderr).toContain("There are unformatted files (1)");
    expect(readFileSync(join(dir, "a.wow"), "utf8")).toBe(messy);

    const fmt = await wowc(["fmt", "."], dir);
    expect(fmt.code).toBe(0);
    expect(fmt.stdout).toContain("Formatted a.wow");
    expect(readFileSync(join(dir, "a.wow"), "utf8")).toBe(tidy);
    expect(await wowc(["fmt", "--check", "a.wow", "b.wow"], dir)).toMatchObject({ code: 0, stdout: "All 2 files are formatted.\n" });
  });

  it("leaves a file with syntax errors as it is, prints its diagnostics and exits 1", async () => {
    const dir = scratchDir();
    const broken = "context shop\ntype T { a: }\n";
    writeFileSync(join(dir, "broken.wow"), broken);
    writeFileSync(join(dir, "ok.wow"), messy);
    const result = await wowc(["fmt"], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/broken\.wow:2:\d+ - error WOW1\d{3}/);
    expect(result.stderr).toContain("were not formatted");
    expect(readFileSync(join(dir, "broken.wow"), "utf8")).toBe(broken);
    expect(readFileSync(join(dir, "ok.wow"), "utf8")).toBe(tidy);
  });

  it("leaves a file that is not UTF-8 byte for byte as it is (WOW6004), and formats the others", async () => {
    const dir = scratchDir();
    // A doc comment saved as Latin-1: "café" with é as the one byte 0xE9.
    const latin1 = Buffer.concat([Buffer.from("context shop\n/** caf"), Buffer.from([0xe9]), Buffer.from(" */\ntype T{a:int}\n")]);
    writeFileSync(join(dir, "latin1.wow"), latin1);
    writeFileSync(join(dir, "ok.wow"), messy);
    const result = await wowc(["fmt"], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("latin1.wow:2:8 - error WOW6004: This file is not UTF-8: the byte 0xE9 here");
    expect(readFileSync(join(dir, "latin1.wow")).equals(latin1)).toBe(true);
    expect(readFileSync(join(dir, "ok.wow"), "utf8")).toBe(tidy);
    expect((await wowc(["fmt", "--check", "latin1.wow"], dir)).code).toBe(1);
  });

  it("writes through a symbolic link to its target, keeps the file's mode, and leaves no temporary file", async () => {
    const dir = scratchDir();
    mkdirSync(join(dir, "real"));
    writeFileSync(join(dir, "real", "a.wow"), messy);
    chmodSync(join(dir, "real", "a.wow"), 0o640);
    symlinkSync(join("real", "a.wow"), join(dir, "link.wow"));
    expect((await wowc(["fmt", "link.wow"], dir)).code).toBe(0);
    expect(lstatSync(join(dir, "link.wow")).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, "real", "a.wow"), "utf8")).toBe(tidy);
    expect(statSync(join(dir, "real", "a.wow")).mode & 0o777).toBe(0o640);
    expect(readdirSync(join(dir, "real"))).toEqual(["a.wow"]);
  });

  it("a file it cannot write back keeps its content whole, is reported (WOW6003), and the exit status is 2", async () => {
    const dir = scratchDir();
    writeFileSync(join(dir, "a.wow"), messy);
    writeFileSync(join(dir, "b.wow"), messy);
    // Something that is not wowc's holds the temporary name beside a.wow: never written over.
    mkdirSync(join(dir, `.a.wow.wowc-${process.pid}.tmp`));
    const result = await wowc(["fmt"], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("error WOW6003: Cannot write 'a.wow'");
    expect(result.stdout).toContain("Formatted b.wow");
    expect(result.stdout).not.toContain("Formatted a.wow");
    expect(readFileSync(join(dir, "a.wow"), "utf8")).toBe(messy);
    expect(readFileSync(join(dir, "b.wow"), "utf8")).toBe(tidy);
  });

  it("--print-width sets the column long annotations wrap at", async () => {
    const dir = scratchDir();
    const job = 'context shop\n\nsaga S {\n  @OnSchedule(name = "nightly", cron = "0 0 2 * * *", zone = "UTC", commands = [Alpha])\n  job nightly\n}\n';
    writeFileSync(join(dir, "a.wow"), job);
    // 88 columns: within the default 100, beyond 80.
    expect(await wowc(["fmt", "--check", "a.wow"], dir)).toMatchObject({ code: 0 });
    expect(await wowc(["fmt", "--print-width", "80", "a.wow"], dir)).toMatchObject({ code: 0 });
    expect(readFileSync(join(dir, "a.wow"), "utf8")).toContain('  @OnSchedule(\n    name = "nightly",\n');
    expect(await wowc(["fmt", "--check", "--print-width=80", "a.wow"], dir)).toMatchObject({ code: 0 });
    expect(await wowc(["fmt", "--print-width=120", "a.wow"], dir)).toMatchObject({ code: 0 });
    expect(readFileSync(join(dir, "a.wow"), "utf8")).toBe(job);
    const bad = await wowc(["fmt", "--print-width", "wide"], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--print-width takes a whole number from 40 to 1000, not 'wide'");
  });

  it("reports a missing path and unknown options as usage errors", async () => {
    expect((await wowc(["fmt", "nope.wow"], scratchDir())).code).toBe(2);
    expect((await wowc(["fmt", "--wat"], scratchDir())).code).toBe(2);
  });
});
