// Reports of a realistic change to the example, and the command line (files, --against, accepting).
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderReport } from "../../compiler/diff/report.js";
import { scratchDir, wowc } from "../tools/run-wowc.js";
import { builtOf, diffBuilt } from "./helpers.js";

const exampleDir = fileURLToPath(new URL("../../examples/eshop/", import.meta.url));
const goldenPath = fileURLToPath(new URL("./golden/eshop-report.md", import.meta.url));
const read = (f: string) => readFileSync(join(exampleDir, f), "utf8");

/** A realistic pull request on the example: pay in a currency, deliveries at 05:30 Paris time, a refund command, a dropped event. */
const edits: Record<string, Array<[string, string]>> = {
  "order.wow": [
    ["command PayOrder { amount: decimal }", "command PayOrder { amount: decimal, currency: string }\n  command RefundOrder { amount: decimal }"],
    ["  event OrderPaid { amount: decimal, at: instant }", "  event OrderPaid { amount: decimal, at: instant }\n  event OrderRefunded { amount: decimal }"],
    ["  @OnCommand(produces = [OrderPaid])\n  on PayOrder", "  @OnCommand(produces = [OrderPaid])\n  on PayOrder\n\n  @OnCommand(produces = [OrderRefunded])\n  on RefundOrder"],
    ["paidAt: instant?", "paidAt: instant"],
  ],
  "inventory.wow": [
    ['cron = "0 0 6 * * *",\n    zone = "UTC"', 'cron = "0 30 5 * * *",\n    zone = "Europe/Paris"'],
    ["  event StockShortage { orderId: string }\n", ""],
    ["produces = [StockReserved, StockShortage]", "produces = [StockReserved]"],
    ["  @OnEvent(commands = [eshop-order.CancelOrder])\n  on StockShortage\n\n", ""],
  ],
};

function edited(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [file, list] of Object.entries(edits)) {
    let text = read(file);
    for (const [from, to] of list) {
      if (!text.includes(from)) throw new Error(`edit not applicable to ${file}: ${from}`);
      text = text.replace(from, to);
    }
    out[file] = text;
  }
  return out;
}

const manifest = (files: Record<string, string>) => builtOf(Object.entries(files).map(([path, text]) => ({ path, text })));
const original = () => ({ "order.wow": read("order.wow"), "inventory.wow": read("inventory.wow") });

describe("the Markdown report of a realistic change to the example", () => {
  it("matches the golden report (refresh with UPDATE_GOLDEN=1)", () => {
    const { changes } = diffBuilt(manifest(original()), manifest(edited()));
    const report = renderReport(changes, "markdown", { sourceRoot: "examples/eshop" });
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(goldenPath, report);
    expect(report).toBe(readFileSync(goldenPath, "utf8"));
    expect(report.indexOf("**breaking**")).toBeLessThan(report.indexOf("| behaviour |"));
  });

  it("annotates the .wow lines for GitHub", () => {
    const { changes } = diffBuilt(manifest(original()), manifest(edited()));
    const lines = renderReport(changes, "github", { sourceRoot: "examples/eshop" }).trimEnd().split("\n");
    const currency = edited()["order.wow"]!.split("\n").findIndex((l) => l.includes("currency: string")) + 1;
    expect(lines).toContain(
      `::error file=examples/eshop/order.wow,line=${currency},title=FIELD_NO_ADD_REQUIRED eshop-order.Order.PayOrder.currency::Required field currency: string was added to command PayOrder.`,
    );
    expect(lines.find((l) => l.includes("JOB_CRON_CHANGED"))).toMatch(/^::warning file=examples\/eshop\/inventory\.wow,line=\d+,/);
    expect(lines.find((l) => l.includes("EVENT_NO_DELETE"))).toMatch(/^::error file=examples\/eshop\/inventory\.wow,title=/);
  });
});

function project(files: Record<string, string>): string {
  const dir = scratchDir("wowc-diff-");
  for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, f), t);
  return dir;
}

describe("wowc diff on the command line", () => {
  it("compares two manifests: exit 1 on breaking changes, 0 when each is accepted or allowed", async () => {
    const before = project(original());
    const after = project(edited());
    expect((await wowc(["build", before])).code).toBe(0);
    expect((await wowc(["build", after])).code).toBe(0);
    const old = join(before, "generated/wow-manifest.json");
    const now = join(after, "generated/wow-manifest.json");
    const plain = await wowc(["diff", old, now]);
    expect(plain.code).toBe(1);
    expect(plain.stdout).toContain("FIELD_NO_ADD_REQUIRED");
    expect(plain.stderr).toContain("--accept RULE:element");
    expect((await wowc(["diff", old, now, "--allow-breaking"])).code).toBe(0);

    const json = JSON.parse((await wowc(["diff", old, now, "--format", "json"])).stdout) as { changes: Array<{ rule: string; element: string; category: string }> };
    const breaking = json.changes.filter((c) => c.category === "breaking").map((c) => `${c.rule}:${c.element}`);
    expect(breaking.length).toBeGreaterThan(1);
    const accepts = breaking.flatMap((k) => ["--accept", k]);
    expect((await wowc(["diff", old, now, ...accepts])).code).toBe(0);
    expect((await wowc(["diff", old, now, ...accepts.slice(2)])).code).toBe(1);
    writeFileSync(join(after, "wowc.diff.json"), JSON.stringify({ accept: breaking }));
    expect((await wowc(["diff", old, now], after)).code).toBe(0);
    // Source directories work too (built in memory).
    expect((await wowc(["diff", before, after, "--allow-breaking"])).stdout).toContain("JOB_CRON_CHANGED");
  });

  it("annotations point at the real sources when the manifests were built with --out elsewhere", async () => {
    const dir = scratchDir("wowc-diff-out-");
    for (const [name, files] of [["d1", original()], ["d2", edited()]] as const) {
      mkdirSync(join(dir, name));
      for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, name, f), t);
      expect((await wowc(["build", name, "--out", `${name}-out`], dir)).code).toBe(0);
    }
    const result = await wowc(["diff", "d1-out/wow-manifest.json", "d2-out/wow-manifest.json", "--format", "github", "--allow-breaking"], dir);
    const files = [...result.stdout.matchAll(/file=([^,]+),line=(\d+)/g)].map((m) => [m[1]!, Number(m[2])] as const);
    expect(files.length).toBeGreaterThan(3);
    const currency = edited()["order.wow"]!.split("\n").findIndex((l) => l.includes("currency: string")) + 1;
    expect(files).toContainEqual(["d2/order.wow", currency]);
    // Every annotation names a file that exists, with the line in it (removed elements: in d1).
    for (const [file, line] of files) expect(readFileSync(join(dir, file), "utf8").split("\n").length).toBeGreaterThanOrEqual(line);
    expect(result.stdout).not.toContain("-out/");
  });

  it("--against a git revision: the committed manifest (or sources) vs a fresh build of the working tree", async () => {
    const repo = scratchDir("wowc-diff-git-");
    const dir = join(repo, "domain");
    mkdirSync(dir);
    for (const [f, t] of Object.entries(original())) writeFileSync(join(dir, f), t);
    const git = (...args: string[]) => execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { stdio: "pipe" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "sources only");
    for (const [f, t] of Object.entries(edited())) writeFileSync(join(dir, f), t);
    const fromSources = await wowc(["diff", "--against", "HEAD", "domain", "--format", "markdown"], repo);
    expect(fromSources.code).toBe(1);
    expect(fromSources.stdout).toContain("`FIELD_NO_ADD_REQUIRED`");
    expect(fromSources.stdout).toContain("`domain/order.wow:");
    // With a committed manifest, that manifest is the previous side.
    cpSync(exampleDir, join(repo, "tmp-original"), { recursive: true });
    expect((await wowc(["build", "tmp-original", "--out", "domain/generated"], repo)).code).toBe(0);
    git("add", "domain/generated");
    git("commit", "-qm", "manifest");
    const fromManifest = await wowc(["diff", "--against", "HEAD", "domain", "--format", "json"], repo);
    expect(JSON.parse(fromManifest.stdout).changes).toEqual(JSON.parse((await wowc(["diff", "--against", "HEAD~1", "domain", "--format", "json"], repo)).stdout).changes);
    expect((await wowc(["diff", "--against", "no-such-ref", "domain"], repo))).toMatchObject({ code: 2 });
  });

  it("--against without a committed manifest compiles files with non-ASCII names too", async () => {
    // git quotes such names ("boutique-\303\251t\303\251.wow") unless asked for NUL-separated output.
    const repo = scratchDir("wowc-diff-git-utf8-");
    const shop = "context shop\nenum Status { OPEN, PAID }\naggregate Cart {\n  command Pay { amount: decimal }\n  event Paid {}\n  @OnCommand(produces = [Paid])\n  on Pay\n}\n";
    writeFileSync(join(repo, "boutique-été.wow"), shop);
    writeFileSync(join(repo, "other.wow"), "context other\ntype Note { text: string }\n");
    const git = (...args: string[]) => execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { stdio: "pipe" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "one");
    writeFileSync(join(repo, "boutique-été.wow"), shop.replace("OPEN, PAID", "OPEN").replace("amount: decimal", "amount: string"));
    const result = await wowc(["diff", "--against", "HEAD", "--format", "json"], repo);
    expect(result.stdout).not.toContain("WOW7");
    const changes = (JSON.parse(result.stdout) as { changes: Array<{ rule: string; element: string }> }).changes;
    expect(changes.map((c) => `${c.rule}:${c.element}`)).toEqual(["FIELD_SAME_TYPE:shop.Cart.Pay.amount", "ENUM_VALUE_NO_DELETE:shop.Status.PAID"]);
    expect(result.code).toBe(1);
    // Alone, it is no longer "neither a manifest nor .wow files" (WOW7001).
    git("rm", "-q", "other.wow");
    git("commit", "-qm", "two");
    expect((await wowc(["diff", "--against", "HEAD", "--format", "json"], repo)).stdout).not.toContain("WOW7001");
  });

  it("--against a revision whose source is not UTF-8: WOW6004 points at the byte, nothing is compared on a lossy text", async () => {
    const repo = scratchDir("wowc-diff-git-latin1-");
    const latin1 = Buffer.concat([Buffer.from("context shop\n/** Caf"), Buffer.from([0xe9]), Buffer.from(" */\ntype Note { text: string }\n")]);
    writeFileSync(join(repo, "shop.wow"), latin1);
    const git = (...args: string[]) => execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { stdio: "pipe" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "latin-1");
    writeFileSync(join(repo, "shop.wow"), "context shop\n/** Café */\ntype Note { text: string }\n");
    const result = await wowc(["diff", "--against", "HEAD"], repo);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/shop\.wow:2:8 - error WOW6004: This file is not UTF-8: the byte 0xE9/);
    expect(result.stdout).toContain("WOW7003");
  });

  it("explains usage errors", async () => {
    const one = await wowc(["diff", "only-one.json"]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain("give two manifests");
    expect((await wowc(["diff", "a", "b", "--accept", "NOPE:x"])).stderr).toContain("is not a rule");
    // A rule without its element: named whole, with how to accept it everywhere.
    const bare = (await wowc(["diff", "a", "b", "--accept", "FIELD_SAME_TYPE"])).stderr;
    expect(bare).toContain("'FIELD_SAME_TYPE' has no ':element' (FIELD_SAME_TYPE:* accepts the rule everywhere)");
    expect(bare).not.toContain("is not a rule");
  });

  /** `old/` and `new/`: one breaking change, FIELD_SAME_TYPE:a.T.x. */
  const pair = () => {
    const dir = scratchDir("wowc-diff-accept-");
    mkdirSync(join(dir, "old"));
    mkdirSync(join(dir, "new"));
    const source = (x: string) => `context a\ntype T { x: ${x} }\naggregate A {\n  command C { t: T }\n  event E {}\n  @OnCommand(produces = [E])\n  on C\n}\n`;
    writeFileSync(join(dir, "old/a.wow"), source("int"));
    writeFileSync(join(dir, "new/a.wow"), source("string"));
    return dir;
  };

  it("wowc.diff.json: an unknown rule is an error at its line, an entry matching no change a warning", async () => {
    const dir = pair();
    writeFileSync(join(dir, "wowc.diff.json"), '{\n  "accept": [\n    "FIELD_SAME_TYP:a.T.x"\n  ]\n}\n');
    const typo = await wowc(["diff", "old", "new"], dir);
    expect(typo.code).toBe(2);
    expect(typo.stdout).toContain("wowc.diff.json:3:5 - error WOW7004: Invalid accept list 'wowc.diff.json': 'FIELD_SAME_TYP' in \"FIELD_SAME_TYP:a.T.x\" is not a rule");

    writeFileSync(join(dir, "wowc.diff.json"), '{\n  "accept": [\n    "FIELD_SAME_TYPE:a.T.x",\n    "FIELD_NO_DELETE:a.T.y"\n  ]\n}\n');
    const stale = await wowc(["diff", "old", "new", "--accept", "TYPE_NO_DELETE:a.U"], dir);
    expect(stale.code).toBe(0);
    expect(stale.stdout).toContain("breaking (accepted)");
    expect(stale.stderr).toContain('wowc diff: warning: wowc.diff.json:4: "FIELD_NO_DELETE:a.T.y" matches no change');
    expect(stale.stderr).toContain("wowc diff: warning: --accept TYPE_NO_DELETE:a.U matches no change");
    expect(stale.stderr).not.toContain("FIELD_SAME_TYPE:a.T.x");
  });

  it("two directories: a removed element points at the previous directory", async () => {
    const dir = scratchDir("wowc-diff-roots-");
    for (const side of ["prevA", "prevB"]) {
      mkdirSync(join(dir, side));
      writeFileSync(join(dir, side, "a.wow"), "context a\ntype T { x: int }\n");
    }
    writeFileSync(join(dir, "prevA/other.wow"), "context other\ntype Note { text: string }\n");
    const text = await wowc(["diff", "prevA", "prevB"], dir);
    expect(text.stdout).toContain("prevA/other.wow:1 (previous)");
    expect(text.stdout).not.toContain("prevB/other.wow");
    expect((await wowc(["diff", "prevA", "prevB", "--format", "github"], dir)).stdout).toContain("::error file=prevA/other.wow,title=CONTEXT_NO_DELETE other::");
  });
});
