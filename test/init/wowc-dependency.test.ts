// The `wowc` dependency `wowc init` writes (compiler/init/wowc-dependency.ts): the wowc that runs,
// as npm can install it — by version only when npm got it from a registry.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { wowcDependency, type InstallRecord } from "../../compiler/init/wowc-dependency.js";
import { scratchDir } from "../tools/run-wowc.js";

const installed = { root: "/work/app/node_modules/wowc", name: "wowc", version: "1.4.2" };
const recorded = (record: InstallRecord | undefined) => (lockfile: string, key: string) => {
  expect([lockfile, key]).toEqual(["/work/app/node_modules/.package-lock.json", "node_modules/wowc"]);
  return record;
};

describe("the wowc dependency of a new project", () => {
  it("is the version when npm installed wowc from a registry, or when no npm record says otherwise", () => {
    expect(wowcDependency(installed, recorded({ resolved: "https://registry.npmjs.org/wowc/-/wowc-1.4.2.tgz" }))).toBe("^1.4.2");
    expect(wowcDependency(installed, recorded({ resolved: "http://npm.example.com/wowc/-/wowc-1.4.2.tgz" }))).toBe("^1.4.2");
    expect(wowcDependency(installed, recorded(undefined))).toBe("^1.4.2");
  });

  it("is the tarball or git URL npm installed it from, the tarball by its absolute path", () => {
    expect(wowcDependency(installed, recorded({ resolved: "file:../wowc-1.4.2.tgz" }))).toBe("file:/work/wowc-1.4.2.tgz");
    expect(wowcDependency(installed, recorded({ resolved: "file:/opt/wowc-1.4.2.tgz" }))).toBe("file:/opt/wowc-1.4.2.tgz");
    expect(wowcDependency(installed, recorded({ resolved: "git+ssh://git@example.com/wowc.git#abc123" }))).toBe("git+ssh://git@example.com/wowc.git#abc123");
  });

  it("is the package root itself for a checkout, a link, a private package or one without a version", () => {
    const never = () => expect.unreachable("no lockfile is read for a package outside node_modules");
    expect(wowcDependency({ root: "/src/wowc", name: "wowc", version: "0.1.0" }, never)).toBe("file:/src/wowc");
    expect(wowcDependency(installed, recorded({ resolved: "../../src/wowc", link: true }))).toBe("file:/work/app/node_modules/wowc");
    expect(wowcDependency({ ...installed, private: true }, never)).toBe("file:/work/app/node_modules/wowc");
    expect(wowcDependency({ ...installed, version: undefined }, never)).toBe("file:/work/app/node_modules/wowc");
  });

  it("reads npm's record from the project's hidden lockfile, also for a package nested in another's node_modules", () => {
    const project = scratchDir("wowc-dependency-");
    const root = join(project, "node_modules/tool/node_modules/wowc");
    mkdirSync(root, { recursive: true });
    writeFileSync(
      join(project, "node_modules/.package-lock.json"),
      JSON.stringify({ lockfileVersion: 3, packages: { "node_modules/tool/node_modules/wowc": { version: "1.4.2", resolved: "file:vendor/wowc-1.4.2.tgz" } } }),
    );
    expect(wowcDependency({ root, name: "wowc", version: "1.4.2" })).toBe(`file:${join(project, "vendor/wowc-1.4.2.tgz")}`);
  });
});
