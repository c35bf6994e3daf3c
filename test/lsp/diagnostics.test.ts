// `wowc lsp` over stdio: diagnostics as `wowc check` reports them, published for every file of the
// build an edit reaches (and cleared when they go away), debounced; quick fixes that make them go.
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../compiler/cli/run-cli.js";
import { copyExample, LspClient, range, uriOf, type PublishedDiagnostics, type TextEdit } from "./client.js";

interface CodeAction {
  readonly title: string;
  readonly kind: string;
  readonly isPreferred?: boolean;
  readonly edit: { readonly changes: Record<string, TextEdit[]> };
}

let dir: string;
let client: LspClient;
let order: string;
let inventory: string;

beforeAll(async () => {
  dir = copyExample();
  client = new LspClient();
  await client.initialize(dir, { debounceMs: 100 });
  order = uriOf(join(dir, "order.wow"));
  inventory = uriOf(join(dir, "inventory.wow"));
});

afterAll(async () => {
  await client.close();
});

/** The quick fixes the server offers for one of its diagnostics. */
function quickFixes(uri: string, diagnostic: PublishedDiagnostics["diagnostics"][number]): Promise<CodeAction[]> {
  return client.request<CodeAction[]>("textDocument/codeAction", { textDocument: { uri }, range: diagnostic.range, context: { diagnostics: [diagnostic] } });
}

/** `wowc check --format json` of the sources as the editor holds them, in a directory of their own. */
async function check(texts: Record<string, string>): Promise<Array<{ file: string; code: string; line: number; column: number; endLine: number; endColumn: number }>> {
  const root = mkdtempSync(join(tmpdir(), "wowc-lsp-check-"));
  cpSync(dir, root, { recursive: true });
  for (const [name, text] of Object.entries(texts)) writeFileSync(join(root, name), text);
  let stdout = "";
  await runCli(["check", "--format", "json", root], { stdout: (t) => void (stdout += t), stderr: () => {}, cwd: root, env: {} });
  return (JSON.parse(stdout) as { diagnostics: Array<{ file: string; code: string; line: number; column: number; endLine: number; endColumn: number }> }).diagnostics;
}

describe("wowc lsp diagnostics", () => {
  it("publishes every file of the build once it starts, clean ones with no diagnostics", async () => {
    const first = await client.diagnostics(order, 0);
    const second = await client.diagnostics(inventory, 0);
    expect(first.diagnostics).toEqual([]);
    expect(second.diagnostics).toEqual([]);
  });

  it("reports an edit's errors with code, hint and range, exactly those of wowc check", async () => {
    await client.open(join(dir, "order.wow"));
    const from = client.published.length;
    await client.replace(order, "on CancelOrder", "on CancelOrdr");
    const published = await client.diagnostics(order, from, (p) => p.diagnostics.length > 0);
    expect(published.diagnostics.map((d) => [d.code, d.range])).toEqual([
      ["WOW3007", range(26, 10, 26, 21)],
      ["WOW2002", range(45, 5, 45, 15)],
    ]);
    const unknown = published.diagnostics[1]!;
    expect(unknown).toMatchObject({ severity: 1, source: "wowc" });
    expect(unknown.message).toMatch(/^Unknown command 'CancelOrdr'\.\nhint: Did you mean 'CancelOrder'\?/);
    const cli = await check({ "order.wow": client.text(order) });
    expect(cli.map((d) => [d.file, d.code, d.line - 1, d.column - 1, d.endLine - 1, d.endColumn - 1])).toEqual(
      published.diagnostics.map((d) => ["order.wow", d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character]),
    );
  });

  it("offers the hint's 'Did you mean' as a quick fix that makes the error go away", async () => {
    const diagnostics = client.latest(order)!.diagnostics;
    const actions = await quickFixes(order, diagnostics[1]!);
    const fix = actions.find((a) => a.title === "Change to 'CancelOrder'")!;
    expect(fix).toMatchObject({ kind: "quickfix", isPreferred: true, edit: { changes: { [order]: [{ range: range(45, 5, 45, 15), newText: "CancelOrder" }] } } });
    const from = client.published.length;
    await client.edit(order, fix.edit.changes[order]!);
    expect((await client.diagnostics(order, from)).diagnostics).toEqual([]);
  });

  it("publishes the diagnostics of the other files an edit reaches, and clears them when they go", async () => {
    let from = client.published.length;
    await client.replace(order, "event OrderCreated {", "event OrderMade {");
    const reached = await client.diagnostics(inventory, from);
    expect(reached.diagnostics.map((d) => [d.code, d.range, d.message.split("\n")[0]])).toEqual([
      ["WOW2003", range(29, 5, 29, 29), "Unknown event 'eshop-order.OrderCreated'."],
    ]);
    const own = await client.diagnostics(order, from);
    expect(own.diagnostics.map((d) => d.code)).toEqual(["WOW3008", "WOW2003"]);
    from = client.published.length;
    await client.replace(order, "event OrderMade {", "event OrderCreated {");
    expect((await client.diagnostics(inventory, from)).diagnostics).toEqual([]);
    expect((await client.diagnostics(order, from)).diagnostics).toEqual([]);
  });

  it("links the other place a message names (related information)", async () => {
    const from = client.published.length;
    await client.replace(order, "command PayOrder {", "command CancelOrder {");
    const published = await client.diagnostics(order, from, (p) => p.diagnostics.some((d) => d.code === "WOW2007"));
    const duplicate = published.diagnostics.find((d) => d.code === "WOW2007")!;
    expect(duplicate.range).toEqual(range(26, 10, 26, 21));
    expect(duplicate.relatedInformation).toEqual([{ location: { uri: order, range: range(25, 10, 25, 21) }, message: "the earlier one" }]);
    const back = client.published.length;
    await client.replace(order, "command CancelOrder { amount", "command PayOrder { amount");
    expect((await client.diagnostics(order, back)).diagnostics).toEqual([]);
  });

  it("waits for the edits to pause: three quick edits, one build, of the last text", async () => {
    const from = client.published.length;
    await client.replace(order, "on PayOrder", "on PayOrde");
    await client.replace(order, "on PayOrde", "on PayOrd");
    await client.replace(order, "on PayOrd", "on PayOr");
    const published = await client.diagnostics(order, from);
    expect(published.diagnostics.map((d) => d.message.split("\n")[0])).toEqual(["Command 'PayOrder' has no handler.", "Unknown command 'PayOr'."]);
    expect(client.published.slice(from).filter((p) => p.uri === order)).toHaveLength(1);
    const back = client.published.length;
    await client.replace(order, "on PayOr", "on PayOrder");
    expect((await client.diagnostics(order, back)).diagnostics).toEqual([]);
  });

  it("declares a missing event as a quick fix, in the handler's aggregate", async () => {
    const from = client.published.length;
    await client.replace(order, "produces = [OrderPaid]", "produces = [OrderRefunded]");
    const published = await client.diagnostics(order, from, (p) => p.diagnostics.some((d) => d.code === "WOW2003"));
    const unknown = published.diagnostics.find((d) => d.code === "WOW2003")!;
    expect(unknown.range).toEqual(range(40, 25, 40, 38));
    const actions = await quickFixes(order, unknown);
    const declare = actions.find((a) => a.title === "Declare event 'OrderRefunded' in aggregate 'Order'")!;
    expect(declare.edit.changes[order]).toEqual([{ range: range(32, 47, 32, 47), newText: "\n  event OrderRefunded {}" }]);
    const after = client.published.length;
    await client.edit(order, declare.edit.changes[order]!);
    const fixed = await client.diagnostics(order, after);
    // What is left: OrderPaid, which nothing produces now.
    expect(fixed.diagnostics.map((d) => [d.code, d.range])).toEqual([["WOW3008", range(31, 8, 31, 17)]]);
  });

  it("adds the missing `on` handler of a command as a quick fix", async () => {
    const from = client.published.length;
    await client.replace(order, "produces = [OrderRefunded]", "produces = [OrderPaid]");
    await client.replace(order, "  command CancelOrder", "  command RefundOrder {}\n  command CancelOrder");
    const published = await client.diagnostics(order, from, (p) => p.diagnostics.some((d) => d.code === "WOW3007"));
    const unhandled = published.diagnostics.find((d) => d.code === "WOW3007")!;
    expect(unhandled.range).toEqual(range(26, 10, 26, 21));
    const actions = await quickFixes(order, unhandled);
    const add = actions.find((a) => a.title === "Add the handler 'on RefundOrder' to aggregate 'Order'")!;
    expect(add.edit.changes[order]).toEqual([{ range: range(47, 16, 47, 16), newText: "\n\n  @OnCommand(produces = [])\n  on RefundOrder" }]);
    const after = client.published.length;
    await client.edit(order, add.edit.changes[order]!);
    const fixed = await client.diagnostics(order, after);
    expect(fixed.diagnostics.filter((d) => d.code === "WOW3007")).toEqual([]);
  });
});
