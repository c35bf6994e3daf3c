// `wowc lsp` over stdio on a copy of the example: hover, definitions, references, highlights,
// rename (across two files, and refused), symbols, formatting and completion, at exact positions.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyEdits, copyExample, LspClient, range, uriOf, type Range, type TextEdit } from "./client.js";

let dir: string;
let client: LspClient;
let order: string;
let inventory: string;

interface Hover {
  readonly contents: { readonly kind: string; readonly value: string };
  readonly range: Range;
}
interface Location {
  readonly uri: string;
  readonly range: Range;
}
interface CompletionItem {
  readonly label: string;
  readonly kind: number;
  readonly textEdit?: TextEdit;
}
interface DocumentSymbol {
  readonly name: string;
  readonly kind: number;
  readonly range: Range;
  readonly selectionRange: Range;
  readonly children?: DocumentSymbol[];
}

const at = (uri: string, line: number, character: number) => ({ textDocument: { uri }, position: { line, character } });

beforeAll(async () => {
  dir = copyExample();
  client = new LspClient();
  // Fire times are counted from a fixed instant: 2025-01-01T00:00:00Z.
  await client.initialize(dir, { debounceMs: 20, now: Date.UTC(2025, 0, 1) });
  order = await client.open(join(dir, "order.wow"));
  inventory = await client.open(join(dir, "inventory.wow"));
  await client.diagnostics(inventory, 0);
});

afterAll(async () => {
  await client.close();
});

describe("wowc lsp hover", () => {
  it("shows a command's declaration, route, handler and who schedules and sends it", async () => {
    const hover = await client.request<Hover>("textDocument/hover", at(order, 26, 12));
    expect(hover.range).toEqual(range(26, 10, 26, 21));
    expect(hover.contents.kind).toBe("markdown");
    expect(hover.contents.value).toBe(
      [
        "**command** `CancelOrder` of aggregate `Order` — context `eshop-order`",
        "```wow\ncommand CancelOrder { reason: CancelReason }\n```",
        "Route: `PUT /eshop-order/tenant/{tenantId}/order/{id}/cancel_order`",
        "Handled by: `on CancelOrder` in aggregate `Order` (order.wow:46)",
        "Scheduled by:\n- `on ConfirmOrderStock` of aggregate `eshop-order.Order` (order.wow:39)",
        "Sent by:\n- `on StockShortage` of saga `eshop-inventory.StockSaga` (inventory.wow:36)",
      ].join("\n\n"),
    );
  });

  it("shows a declaration's doc comment, also from a reference", async () => {
    const hover = await client.request<Hover>("textDocument/hover", at(order, 38, 40));
    expect(hover.range).toEqual(range(38, 38, 38, 51));
    expect(hover.contents.value).toContain("**service** `PaymentPolicy` — context `eshop-order`\n\nHost-provided: how long an order waits for payment.");
    expect(hover.contents.value).toContain("Passed to:\n- `on ConfirmOrderStock` of aggregate `eshop-order.Order`");
  });

  it("shows a job's rule in words and its next five fire times in its zone", async () => {
    const hover = await client.request<Hover>("textDocument/hover", at(inventory, 46, 11));
    expect(hover.range).toEqual(range(54, 6, 54, 23));
    expect(hover.contents.value).toBe(
      [
        "**job** `receiveDeliveries` — cron `0 0 6 * * *` in UTC",
        "Fires at 06:00:00, every day (UTC).",
        "Next 5 fire times:\n\n| UTC | UTC |\n| --- | --- |\n" +
          [1, 2, 3, 4, 5].map((d) => `| 2025-01-0${d} 06:00:00 +00:00 | 2025-01-0${d}T06:00:00.000Z |`).join("\n"),
      ].join("\n\n"),
    );
  });

  it("reads the rule in the job's zone, across a daylight-saving change", async () => {
    const from = client.published.length;
    await client.replace(inventory, 'cron = "0 0 6 * * *",\n    zone = "UTC"', 'cron = "0 30 2 * * SUN",\n    zone = "Europe/Paris"');
    await client.diagnostics(inventory, from);
    const hover = await client.request<Hover>("textDocument/hover", at(inventory, 54, 8));
    expect(hover.contents.value).toContain("Fires at 02:30:00, on Sunday (Europe/Paris).");
    expect(hover.contents.value).toContain("| 2025-01-05 02:30:00 +01:00 | 2025-01-05T01:30:00.000Z |");
    await client.replace(inventory, 'cron = "0 30 2 * * SUN",\n    zone = "Europe/Paris"', 'cron = "0 0 6 * * *",\n    zone = "UTC"');
  });
});

describe("wowc lsp navigation", () => {
  it("goes from a qualified reference to the declaration in the other file, and from its context to the context clause", async () => {
    const name = await client.request<Location[]>("textDocument/definition", at(inventory, 29, 20));
    expect(name).toEqual([{ uri: order, range: range(28, 8, 28, 20) }]);
    const context = await client.request<Location[]>("textDocument/definition", at(inventory, 29, 7));
    expect(context).toEqual([{ uri: order, range: range(1, 8, 1, 19) }]);
  });

  it("finds every reference of an event, declaration first", async () => {
    const found = await client.request<Location[]>("textDocument/references", { ...at(order, 28, 10), context: { includeDeclaration: true } });
    expect(found).toEqual([
      { uri: order, range: range(28, 8, 28, 20) },
      { uri: inventory, range: range(29, 17, 29, 29) },
      { uri: order, range: range(34, 25, 34, 37) },
    ]);
    const without = await client.request<Location[]>("textDocument/references", { ...at(order, 28, 10), context: { includeDeclaration: false } });
    expect(without).toHaveLength(2);
  });

  it("highlights a name's declaration and uses in the document", async () => {
    const marks = await client.request<Array<{ range: Range; kind: number }>>("textDocument/documentHighlight", at(inventory, 10, 12));
    expect(marks).toEqual([
      { range: range(10, 10, 10, 22), kind: 3 },
      { range: range(24, 5, 24, 17), kind: 2 },
      { range: range(31, 68, 31, 80), kind: 2 },
      { range: range(37, 23, 37, 35), kind: 2 },
    ]);
  });

  it("renames a command in both files", async () => {
    const prepared = await client.request<{ range: Range; placeholder: string }>("textDocument/prepareRename", at(order, 26, 12));
    expect(prepared).toEqual({ range: range(26, 10, 26, 21), placeholder: "CancelOrder" });
    const edit = await client.request<{ changes: Record<string, TextEdit[]> }>("textDocument/rename", { ...at(order, 26, 12), newName: "AbortOrder" });
    expect(Object.keys(edit.changes).sort()).toEqual([inventory, order].sort());
    expect(edit.changes[order]!.map((e) => e.range)).toEqual([range(26, 10, 26, 21), range(37, 85, 37, 96), range(45, 5, 45, 16)]);
    expect(edit.changes[inventory]).toEqual([{ range: range(34, 35, 34, 46), newText: "AbortOrder" }]);
    const renamed = applyEdits(client.text(order), edit.changes[order]!);
    expect(renamed).toContain("command AbortOrder { reason: CancelReason }");
    expect(renamed).toContain("schedules = [AbortOrder]");
    // Applied, the build stays clean in both files.
    const from = client.published.length;
    await client.edit(order, edit.changes[order]!);
    await client.edit(inventory, edit.changes[inventory]!);
    await client.until("both files clean", () => {
      const o = client.published.slice(from).filter((p) => p.uri === order).at(-1);
      const i = client.published.slice(from).filter((p) => p.uri === inventory).at(-1);
      return o !== undefined && i !== undefined && client.text(inventory).includes("eshop-order.AbortOrder") && o.diagnostics.length === 0 && i.diagnostics.length === 0 ? true : undefined;
    });
  });

  it("refuses a rename to an invalid name or to a name the context already declares", async () => {
    await expect(client.request("textDocument/rename", { ...at(order, 26, 12), newName: "abort-order" })).rejects.toThrow(/Cannot rename to 'abort-order'/);
    await expect(client.request("textDocument/rename", { ...at(order, 26, 12), newName: "PayOrder" })).rejects.toThrow("Cannot rename to 'PayOrder': context 'eshop-order' already declares command 'PayOrder'.");
    await expect(client.request("textDocument/rename", { ...at(order, 26, 12), newName: "class" })).rejects.toThrow("Cannot rename to 'class': 'class' cannot be used as the name of a declaration.");
    await expect(client.request("textDocument/rename", { ...at(inventory, 0, 10), newName: "eshop-order" })).rejects.toThrow("Cannot rename to 'eshop-order': context 'eshop-order' already exists.");
    await expect(client.request("textDocument/rename", { ...at(inventory, 0, 10), newName: "Inventory" })).rejects.toThrow(/a context name is lower-case/);
  });

  it("renames a context in its clause and in every qualified reference", async () => {
    const edit = await client.request<{ changes: Record<string, TextEdit[]> }>("textDocument/rename", { ...at(order, 1, 10), newName: "shop-order" });
    expect(edit.changes[order]).toEqual([{ range: range(1, 8, 1, 19), newText: "shop-order" }]);
    expect(edit.changes[inventory]!.map((e) => e.range.start.line)).toEqual([29, 31, 34, 38]);
  });
});

describe("wowc lsp symbols", () => {
  it("outlines a file: its context, declarations and members", async () => {
    const symbols = await client.request<DocumentSymbol[]>("textDocument/documentSymbol", { textDocument: { uri: inventory } });
    expect(symbols.map((s) => [s.name, s.kind])).toEqual([["eshop-inventory", 3], ["Deliveries", 11], ["Stock", 5], ["StockSaga", 5]]);
    const saga = symbols[3]!;
    expect(saga.range).toEqual(range(27, 0, 55, 1));
    expect(saga.selectionRange).toEqual(range(27, 5, 27, 14));
    expect(saga.children!.map((c) => c.name)).toEqual(["on eshop-order.OrderCreated", "on StockReserved", "on StockShortage", "on eshop-order.OrderCancelled", "on ReserveStock", "receiveDeliveries"]);
    expect(symbols[2]!.children!.map((c) => c.name).slice(0, 3)).toEqual(["state", "ReceiveStock", "ReserveStock"]);
  });

  it("finds declarations of every file by a part of their name", async () => {
    const found = await client.request<Array<{ name: string; kind: number; containerName: string; location: Location }>>("workspace/symbol", { query: "stkres" });
    expect(found.map((s) => [s.name, s.containerName, s.location.uri, s.location.range])).toEqual([
      ["StockReleased", "eshop-inventory.Stock", inventory, range(15, 8, 15, 21)],
      ["StockReserved", "eshop-inventory.Stock", inventory, range(13, 8, 13, 21)],
    ]);
    expect((await client.request<unknown[]>("workspace/symbol", { query: "Order" })).length).toBe(12);
  });
});

describe("wowc lsp formatting", () => {
  it("formats a document with wowc fmt's rules, sending only the lines that change", async () => {
    await client.replace(order, "  command PayOrder { amount: decimal }", "      command PayOrder {amount:decimal}");
    await client.replace(order, "  productId: string", "     productId :  string");
    const edits = await client.request<TextEdit[]>("textDocument/formatting", { textDocument: { uri: order }, options: { tabSize: 2, insertSpaces: true } });
    expect(edits).toEqual([
      { range: range(7, 0, 8, 0), newText: "  productId: string\n" },
      { range: range(25, 0, 26, 0), newText: "  command PayOrder { amount: decimal }\n" },
    ]);
    expect(applyEdits(client.text(order), edits)).toBe(readFileSync(join(dir, "order.wow"), "utf8").replace("CancelOrder", "AbortOrder").replace("[CancelOrder]", "[AbortOrder]").replace("on CancelOrder", "on AbortOrder"));
  });

  it("formats a range: only the edits of its lines", async () => {
    const edits = await client.request<TextEdit[]>("textDocument/rangeFormatting", { textDocument: { uri: order }, range: range(25, 0, 26, 0), options: { tabSize: 2, insertSpaces: true } });
    expect(edits).toEqual([{ range: range(25, 0, 26, 0), newText: "  command PayOrder { amount: decimal }\n" }]);
    await client.edit(order, edits);
    await client.replace(order, "     productId :  string", "  productId: string");
  });

  it("leaves a document with syntax errors as it is", async () => {
    await client.replace(order, "type OrderItem {", "type OrderItem {{");
    expect(await client.request("textDocument/formatting", { textDocument: { uri: order }, options: { tabSize: 2, insertSpaces: true } })).toBeNull();
    await client.replace(order, "type OrderItem {{", "type OrderItem {");
  });
});

describe("wowc lsp completion", () => {
  const labels = (items: { items: CompletionItem[] }) => items.items.map((i) => i.label);
  const complete = (uri: string, line: number, character: number) => client.request<{ items: CompletionItem[] }>("textDocument/completion", at(uri, line, character));

  it("offers events in `produces = [` and commands in `schedules = [`", async () => {
    const produces = labels(await complete(order, 37, 25));
    expect(produces).toEqual(expect.arrayContaining(["OrderCreated", "OrderPaid", "OrderStockConfirmed", "eshop-inventory.StockReserved", "eshop-inventory"]));
    expect(produces).not.toContain("PayOrder");
    const schedules = labels(await complete(order, 37, 85));
    expect(schedules).toEqual(expect.arrayContaining(["PayOrder", "AbortOrder", "eshop-inventory.ReleaseStock"]));
    expect(schedules).not.toContain("OrderPaid");
  });

  it("completes the name being typed, replacing it whole, and names of the context after `ctx.`", async () => {
    const typed = await complete(inventory, 28, 26);
    expect(typed.items.find((i) => i.label === "ReserveStock")!.textEdit).toEqual({ range: range(28, 23, 28, 35), newText: "ReserveStock" });
    const qualified = await complete(inventory, 29, 20);
    expect(labels(qualified)).toEqual(expect.arrayContaining(["OrderCreated", "OrderCancelled"]));
    expect(labels(qualified)).not.toContain("StockReserved");
    expect(qualified.items.find((i) => i.label === "OrderCreated")!.textEdit).toEqual({ range: range(29, 17, 29, 29), newText: "OrderCreated" });
  });

  it("offers types for a field's type and services for a parameter's", async () => {
    const types = labels(await complete(order, 25, 29));
    expect(types).toEqual(expect.arrayContaining(["decimal", "string", "instant", "OrderItem", "CancelReason", "OrderStatus"]));
    expect(types).not.toContain("Order");
    expect(types).not.toContain("PaymentPolicy");
    const services = labels(await complete(order, 38, 38));
    expect(services).toEqual(expect.arrayContaining(["PaymentPolicy", "eshop-inventory.Deliveries"]));
    expect(services).not.toContain("OrderItem");
  });

  it("offers the annotations a member may carry after `@`, and an annotation's arguments", async () => {
    await client.replace(order, "  @OnCommand(produces = [OrderPaid])", "  @\n  @OnCommand(produces = [OrderPaid])");
    expect(labels(await complete(order, 40, 3)).sort()).toEqual(["Blocking", "CreateAggregate", "DeleteAggregate", "OnCommand", "Retry"]);
    await client.replace(order, "  @\n  @OnCommand(produces = [OrderPaid])", "  @OnCommand(produces = [OrderPaid])");
    const saga = labels(await complete(inventory, 45, 4));
    expect(saga).toEqual(["scope", "sharded", "jitter"]);
    const args = await complete(inventory, 45, 32);
    expect(args.items.map((i) => i.textEdit!.newText)).toEqual(["scope = ", "sharded = ", "jitter = "]);
  });

  it("offers zone names inside `zone = \"…\"` and misfire, scope and overlap values", async () => {
    const zones = await complete(inventory, 47, 13);
    expect(labels(zones)).toEqual(expect.arrayContaining(["UTC", "Europe/Paris", "America/New_York"]));
    expect(zones.items.find((i) => i.label === "Europe/Paris")!.textEdit).toEqual({ range: range(47, 12, 47, 15), newText: "Europe/Paris" });
    expect(labels(await complete(inventory, 48, 14))).toEqual(["COALESCE", "CATCH_UP"]);
    await client.replace(inventory, "misfire = COALESCE,", "misfire = COALESCE, scope = ,");
    expect(labels(await complete(inventory, 48, 31))).toEqual(["SYSTEM", "TENANT"]);
    await client.replace(inventory, "misfire = COALESCE, scope = ,", "misfire = COALESCE,");
    await client.replace(inventory, "overlap = SKIP", "overlap = ");
    expect(labels(await complete(inventory, 50, 14))).toEqual(["BUFFER_ALL", "BUFFER_ONE", "SKIP"]);
    await client.replace(inventory, "overlap = ", "overlap = SKIP");
  });

  it("offers the keywords that may start a member or a declaration, and the handled target after `on`", async () => {
    expect(labels(await complete(order, 21, 2))).toEqual(["state", "command", "event", "on"]);
    expect(labels(await complete(inventory, 26, 0))).toEqual(["type", "enum", "service", "aggregate", "saga"]);
    expect(labels(await complete(inventory, 42, 2))).toEqual(["on", "job"]);
    const handled = await complete(inventory, 32, 5);
    expect(labels(handled)).toEqual(expect.arrayContaining(["StockReserved", "eshop-order.OrderCreated"]));
    expect(labels(handled)).not.toContain("ReserveStock");
    const rejected = labels(await complete(inventory, 41, 5));
    expect(rejected).toEqual(expect.arrayContaining(["ReserveStock", "ReleaseStock"]));
    expect(rejected).not.toContain("StockReserved");
  });

  it("offers nothing inside a comment", async () => {
    expect(labels(await complete(order, 0, 10))).toEqual([]);
  });
});
