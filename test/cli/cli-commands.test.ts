// The command line a new user meets: "did you mean" for a mistyped command or option (of every
// command), per-command help, shell completion scripts that parse (`bash -n`, and `zsh -n` /
// `fish -n` where those shells are installed), and `--` accepted by every command.
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../compiler/cli/commands.js";
import { scratchDir, wowc } from "../tools/run-wowc.js";

const installed = (shell: string) => spawnSync("sh", ["-c", `command -v ${shell}`]).status === 0;

describe("typos get a suggestion", () => {
  it.each([
    [["buidl"], "Unknown command 'buidl'. Did you mean 'build'?"],
    [["chekc", "."], "Unknown command 'chekc'. Did you mean 'check'?"],
    [["fnt"], "Unknown command 'fnt'. Did you mean 'fmt'?"],
    [["build", "--wacth"], "Unknown option '--wacth'. Did you mean '--watch'?"],
    [["check", "--hots", "tsconfig.json"], "Unknown option '--hots'. Did you mean '--host'?"],
    [["build", "--stast"], "Unknown option '--stast'. Did you mean '--stats'?"],
    [["cron", "@daily", "--zonee", "UTC"], "Unknown option '--zonee'. Did you mean '--zone'?"],
    [["fmt", "--chekc"], "Unknown option '--chekc'. Did you mean '--check'?"],
    [["diff", "a", "b", "--fromat", "json"], "Unknown option '--fromat'. Did you mean '--format'?"],
    [["init", "--froce"], "Unknown option '--froce'. Did you mean '--force'?"],
    [["lsp", "--stdoi"], "Unknown option '--stdoi'. Did you mean '--stdio'?"],
  ])("wowc %j", async (argv, message) => {
    const run = await wowc(argv, scratchDir());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it("suggests nothing for a word far from every command", async () => {
    const run = await wowc(["frobnicate"]);
    expect(run.stderr).toContain("Unknown command 'frobnicate'.");
    expect(run.stderr).not.toContain("Did you mean");
  });
});

describe("per-command help", () => {
  it.each(["build", "check", "completion"])("wowc %s --help and wowc help %s print that command's usage and options", async (command) => {
    const own = await wowc([command, "--help"]);
    expect(own.code).toBe(0);
    expect(own.stdout).toMatch(new RegExp(`^wowc ${command} — `));
    for (const option of COMMANDS.find((c) => c.name === command)!.options) expect(own.stdout).toContain(`--${option.name}`);
    expect((await wowc(["help", command])).stdout).toBe(own.stdout);
    // Not the global help.
    expect(own.stdout).not.toContain("wowc lsp");
  });

  it("wowc build --help names --watch and --check, which wowc check --help does not", async () => {
    const build = (await wowc(["build", "--help"])).stdout;
    const check = (await wowc(["check", "--help"])).stdout;
    expect(build).toContain("--watch");
    expect(check).not.toContain("--watch");
    expect(check).toContain("--host <tsconfig>");
  });

  it.each(["cron", "fmt", "diff", "init", "lsp"])("wowc help %s is the tool's own help", async (command) => {
    const viaHelp = await wowc(["help", command]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toBe((await wowc([command, "--help"])).stdout);
  });

  it("wowc help <unknown> suggests the command", async () => {
    expect((await wowc(["help", "buidl"])).stderr).toContain("Did you mean 'build'?");
  });
});

describe("wowc completion", () => {
  const script = async (shell: string) => {
    const run = await wowc(["completion", shell]);
    expect(run.code).toBe(0);
    return run.stdout;
  };

  it("prints a bash script that bash -n accepts, completing every command and each command's options", async () => {
    const text = await script("bash");
    const dir = scratchDir();
    writeFileSync(join(dir, "wowc.bash"), text);
    execFileSync("bash", ["-n", join(dir, "wowc.bash")]);
    for (const command of COMMANDS) expect(text).toContain(command.name);
    expect(text).toContain('build) opts="');
    expect(text).toContain("--watch");
    expect(text).toContain("complete -o default -F _wowc wowc");
  });

  it("completes in a real bash: commands after wowc, options of the command, values of --format", async () => {
    const text = await script("bash");
    const complete = (line: string[]) =>
      execFileSync("bash", ["-c", `${text}\nCOMP_WORDS=(${line.map((w) => `'${w}'`).join(" ")}); COMP_CWORD=${line.length - 1}; _wowc; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: "utf8" }).trim().split("\n");
    expect(complete(["wowc", "bu"])).toEqual(["build"]);
    expect(complete(["wowc", "build", "--wa"])).toEqual(["--warn-as-error", "--watch"]);
    expect(complete(["wowc", "check", "--format", ""])).toEqual(["text", "json"]);
    expect(complete(["wowc", "diff", "--format", "m"])).toEqual(["markdown"]);
    expect(complete(["wowc", "completion", "z"])).toEqual(["zsh"]);
  });

  it.each(["zsh", "fish"])("prints a %s script (checked with its -n when the shell is installed)", async (shell) => {
    const text = await script(shell);
    for (const command of COMMANDS) expect(text).toContain(command.name);
    if (!installed(shell)) return;
    const dir = scratchDir();
    writeFileSync(join(dir, `wowc.${shell}`), text);
    execFileSync(shell, ["-n", join(dir, `wowc.${shell}`)]);
  });

  it("refuses an unknown shell", async () => {
    const run = await wowc(["completion", "powershell"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("give one shell: bash, zsh, fish, not 'powershell'");
  });
});

describe("-- ends the options of every command", () => {
  it("wowc cron -- <expression>", async () => {
    const run = await wowc(["cron", "--count", "1", "--", "0 0 6 * * *"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('"0 0 6 * * *"');
  });

  it("wowc check -- <dir starting with ->", async () => {
    const parent = scratchDir();
    const dir = join(parent, "-src");
    execFileSync("mkdir", [dir]);
    writeFileSync(join(dir, "a.wow"), "context shop\n\ntype T { a: int }\n");
    expect(await wowc(["check", "--", "-src"], parent)).toMatchObject({ code: 0 });
    expect(await wowc(["build", "--", "-src"], parent)).toMatchObject({ code: 0 });
    expect(await wowc(["fmt", "--check", "--", "-src"], parent)).toMatchObject({ code: 0 });
    expect((await wowc(["diff", "--", "-src", "-src"], parent)).code).toBe(0);
    expect((await wowc(["init", "--", "-new"], parent)).code).toBe(0);
    expect(await wowc(["completion", "--", "bash"])).toMatchObject({ code: 0 });
  });
});
