// Every Markdown file of the repository (tracked, or new and not ignored) links only inside it: each
// relative link names a file that is there, and an anchor its target has; no link is a URL, and no
// file defers to documents the repository does not hold (LANGUAGE.md, SEMANTICS.md, ../shared…).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { anchorsOf, problemsOf, slug, type Tree } from "./markdown-links.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

function markdownFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "--", "*.md"], { cwd: ROOT, encoding: "utf8" });
  return out.split("\0").filter((path) => path !== "" && existsSync(join(ROOT, path)));
}

const disk: Tree = {
  markdown: (path) => (path.endsWith(".md") && existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), "utf8") : undefined),
  exists: (path) => existsSync(join(ROOT, path)),
};

describe("the repository's Markdown", () => {
  const files = markdownFiles();

  it("is found (README, the grammar's documents, the language guide)", () => {
    expect(files).toEqual(expect.arrayContaining(["README.md", "grammar/REFERENCE.md", "grammar/DIAGNOSTICS.md", "grammar/TOOLS.md", "docs/language.md"]));
  });

  it("links only to files and anchors inside the repository, and mentions no document outside it", () => {
    expect(files.flatMap((path) => problemsOf(path, disk.markdown(path)!, disk))).toEqual([]);
  });
});

describe("the link check itself, on made-up files", () => {
  const tree = (files: Record<string, string>, others: string[] = []): Tree => ({
    markdown: (path) => files[path],
    exists: (path) => path in files || others.includes(path) || Object.keys(files).some((f) => f.startsWith(`${path}/`)),
  });

  it("makes anchors as GitHub does", () => {
    expect(slug("`wowc build`: the output directory")).toBe("wowc-build-the-output-directory");
    expect(slug("Jobs: `@OnSchedule`")).toBe("jobs-onschedule");
    expect(slug("`scope = TENANT`, and how a tenant's instance comes to exist")).toBe("scope--tenant-and-how-a-tenants-instance-comes-to-exist");
    expect([...anchorsOf("# A\n## A\n```\n# not a heading\n```\n<a id=\"here\"></a>\n")]).toEqual(["a", "a-1", "here"]);
  });

  it("finds a missing file, a missing anchor, a way out, a URL and a foreign document; not what code blocks and spans hold", () => {
    const files = {
      "docs/a.md": "# Title\n[ok](b.md#part) [self](#title) [code](../src/x.ts)\n[gone](c.md) [bad](b.md#nowhere) [out](../../x.md)\n[web](https://example.com) see LANGUAGE.md\n`[not](a-link.md)`\n```\n[not](either.md)\n```\n[ref]: ./b.md#part\n",
      "docs/b.md": "## Part\n",
    };
    expect(problemsOf("docs/a.md", files["docs/a.md"], tree(files, ["src/x.ts"]))).toEqual([
      "docs/a.md:4: mentions LANGUAGE.md, which is not in the repository",
      "docs/a.md:3: c.md: no file docs/c.md",
      "docs/a.md:3: b.md#nowhere: docs/b.md has no heading #nowhere",
      "docs/a.md:3: ../../x.md: leads out of the repository",
      "docs/a.md:4: https://example.com: links outside the repository",
    ]);
  });
});
