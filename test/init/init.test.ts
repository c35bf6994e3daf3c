// `wowc init`: the scaffold depends on the wowc that made it (here a checkout: linked by its path),
// installs (from the npm cache where it can: a fresh machine's cache lacks what the scaffold names), builds (wowc build, wowc check --host, tsc) and passes its
// own tests.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { contextNameFor, packageNameFor } from "../../compiler/init/scaffold.js";
import { scratchDir, wowc } from "../tools/run-wowc.js";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const npm = (args: string[], cwd: string) =>
  execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, npm_config_update_notifier: "false" } });

describe("wowc init", () => {
  beforeAll(() => {
    // The scaffold links this checkout: its `wowc` bin and `wowc/runtime` are the compiled dist/.
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: repo, stdio: "pipe" });
  }, 600_000);

  it("scaffolds a project that installs as written, builds and passes its own tests", async () => {
    const dir = join(scratchDir("wowc-init-"), "My Tasks");
    // No --wowc: a wowc run from a checkout depends on that checkout (`^0.1.0` once made npm install fail with E404).
    const init = await wowc(["init", dir]);
    expect(init.code).toBe(0);
    for (const f of ["package.json", "tsconfig.json", "src/domain.wow", "src/task.ts", "src/task.test.ts", ".gitignore", "README.md"]) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; scripts: Record<string, string>; dependencies: Record<string, string> };
    expect(pkg.name).toBe("my-tasks");
    expect(pkg.dependencies["wowc"]).toBe(`file:${resolve(repo)}`);
    expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(["build", "test"]));
    expect(pkg.scripts["build"]).toContain("wowc check --host tsconfig.json");
    expect(readFileSync(join(dir, "src/domain.wow"), "utf8")).toContain("context my-tasks\n");
    // The scaffold is formatted and checks clean.
    expect((await wowc(["fmt", "--check", dir])).code).toBe(0);
    expect((await wowc(["check", dir])).code).toBe(0);

    npm(["install", "--prefer-offline", "--no-audit", "--no-fund"], dir);
    const test = npm(["test"], dir);
    expect(test).toMatch(/# pass 4\n/);
    expect(test).toMatch(/# fail 0\n/);
    expect(existsSync(join(dir, "generated/my-tasks/index.ts"))).toBe(true);
  }, 600_000);

  it("never overwrites existing files without --force, and checks the context name", async () => {
    const dir = scratchDir("wowc-init-");
    writeFileSync(join(dir, "package.json"), "{}\n");
    const refused = await wowc(["init", dir]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/error WOW7101: '.*' already has package\.json; nothing was written\./);
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe("{}\n");
    expect((await wowc(["init", dir, "--force"])).code).toBe(0);
    expect(readFileSync(join(dir, "package.json"), "utf8")).toContain('"wowc"');
    const bad = await wowc(["init", scratchDir(), "--context", "Bad_Name"]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain("error WOW7102: 'Bad_Name' cannot name a context.");
    expect(bad.stdout).toContain("lower-case words joined by '-'");
  });

  it("names the package and context after the directory", () => {
    expect(contextNameFor("My Tasks")).toBe("my-tasks");
    expect(contextNameFor("2024_orders.v2")).toBe("orders-v2");
    expect(contextNameFor("wow")).toBe("app");
    expect(packageNameFor("My Tasks")).toBe("my-tasks");
    // Accents come off (they once left `n` of `ünï`); a name with no Latin letter falls back.
    expect(contextNameFor("Ünïcode Café")).toBe("unicode-cafe");
    expect(packageNameFor("ünï")).toBe("uni");
    expect(contextNameFor("注文")).toBe("app");
    expect(packageNameFor("注文")).toBe("wow-app");
    expect(packageNameFor("a~b")).toBe("a-b");
  });

  it("tells how to cd into a directory whose name the shell would split, quoted", async () => {
    const parent = scratchDir("wowc-init-");
    const init = await wowc(["init", "my app"], parent);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("  cd 'my app'\n");
    expect((await wowc(["init", "plain"], parent)).stdout).toContain("  cd plain\n");
  });
});

// In process, without the compiled dist/: nothing here installs the scaffold.
describe("wowc init: checks before writing", () => {
  it("refuses a package name npm does not accept, before writing anything", async () => {
    const parent = scratchDir("wowc-init-");
    // Once written as is: `"name": "my"pkg"`, a package.json that does not parse, and exit 0.
    const quoted = await wowc(["init", "q1", "--name", 'my"pkg'], parent);
    expect(quoted.code).toBe(2);
    expect(quoted.stdout).toContain(`error WOW7103: 'my"pkg' cannot name an npm package: it has the character '"'.`);
    const spaced = await wowc(["init", "q2", "--name", "My Package"], parent);
    expect(spaced.code).toBe(2);
    expect(spaced.stdout).toContain("error WOW7103: 'My Package' cannot name an npm package: it has capital letters.");
    const badSpec = await wowc(["init", "q4", "--wowc", "^^1.0"], parent);
    expect(badSpec.code).toBe(2);
    expect(badSpec.stdout).toContain("error WOW7104: '^^1.0' is not a dependency npm can install");
    expect(readdirSync(parent)).toEqual([]);
    // Accepted names and specifiers are written as JSON strings, whatever they hold.
    const scoped = await wowc(["init", "q5", "--name", "@my-org/tasks.v2", "--wowc", 'file:/opt/my "wowc"'], parent);
    expect(scoped.code).toBe(0);
    const pkg = JSON.parse(readFileSync(join(parent, "q5/package.json"), "utf8")) as { name: string; dependencies: Record<string, string> };
    expect(pkg.name).toBe("@my-org/tasks.v2");
    expect(pkg.dependencies["wowc"]).toBe('file:/opt/my "wowc"');
    for (const spec of ["^1.2.3", ">=1.2 <2", "1.0.0 - 2.0.0", "latest", "npm:wowc@1", "owner/repo#main", "https://example.com/wowc.tgz"]) {
      expect((await wowc(["init", scratchDir("wowc-init-"), "--wowc", spec])).code, spec).toBe(0);
    }
  });

  it("checks every path before writing: a file where a directory goes stops it, even with --force", async () => {
    // Once: README.md, .gitignore and package.json written, then WOW9999 at src/.
    const dir = join(scratchDir("wowc-init-"), "q3");
    mkdirSync(dir);
    writeFileSync(join(dir, "src"), "mine\n");
    for (const argv of [["init", dir], ["init", dir, "--force"]]) {
      const run = await wowc(argv);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/error WOW7105: '.*q3\/src' is a file, where `wowc init` writes the directory src\/; nothing was written\./);
      expect(run.stdout).not.toContain("WOW9999");
      expect(readdirSync(dir)).toEqual(["src"]);
      expect(readFileSync(join(dir, "src"), "utf8")).toBe("mine\n");
    }
    // A directory where a file goes; the project directory itself a file.
    const other = scratchDir("wowc-init-");
    mkdirSync(join(other, "README.md"));
    const run = await wowc(["init", other, "--force"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("is a directory, where `wowc init` writes the file README.md; nothing was written.");
    expect(readdirSync(other)).toEqual(["README.md"]);
    const parent = scratchDir("wowc-init-");
    writeFileSync(join(parent, "taken"), "");
    const taken = await wowc(["init", "taken/app"], parent);
    expect(taken.code).toBe(1);
    expect(taken.stdout).toContain("error WOW7105: 'taken' is a file, where `wowc init` writes the project directory; nothing was written.");
  });
});
