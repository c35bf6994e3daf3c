// `wowc build --watch` as a process: builds, rebuilds on an edit, prints each time, stops on SIGINT.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scratchDir } from "../tools/run-wowc.js";

const main = fileURLToPath(new URL("../../compiler/cli/main.ts", import.meta.url));
const text = "context shop\n\naggregate A {\n  command C {}\n  event E {}\n\n  @OnCommand(produces = [E])\n  on C\n}\n";

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
