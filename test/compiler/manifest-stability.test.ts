// The manifest changes only when the model does: each edit a reviewer would call "no change"
// (a comment, blank lines, a reformat, declarations reordered in a file or moved to another file
// of the same context) leaves its bytes as they were, and each edit of the model shows in it.
// The positions, which such edits do move, are in wow-manifest.sources.json instead.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatText } from "../../compiler/format/format-text.js";
import { SOURCES_FILE_NAME } from "../../compiler/manifest/positions.js";
import { MANIFEST_FILE_NAME } from "../../compiler/manifest/types.js";
import { build } from "../../compiler/program/build.js";
import { tempDir } from "./build-cases.js";

const example = fileURLToPath(new URL("../../examples/eshop/", import.meta.url));
const originals = Object.fromEntries(
  readdirSync(example)
    .filter((f) => f.endsWith(".wow"))
    .map((f) => [f, readFileSync(join(example, f), "utf8")]),
);

type Files = Record<string, string>;

/** `from` replaced by `to` in `file` (which must hold it). */
function replace(files: Files, file: string, from: string, to: string): Files {
  const text = files[file]!;
  if (!text.includes(from)) throw new Error(`edit not applicable to ${file}: ${from}`);
  return { ...files, [file]: text.replace(from, to) };
}

/** What `wowc build` writes for `files` (in a copy of the example), by file name. */
function built(files: Files): { manifest: string; sources: string } {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  const result = build({ root, write: true });
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  const out = join(root, "generated");
  const read = (name: string) => readFileSync(join(out, name), "utf8");
  const written = { manifest: read(MANIFEST_FILE_NAME), sources: read(SOURCES_FILE_NAME) };
  rmSync(root, { recursive: true, force: true });
  return written;
}

const neutral: ReadonlyArray<readonly [string, (files: Files) => Files]> = [
  ["a comment line at the top of a file", (f) => ({ ...f, "order.wow": `// Reviewed by the payments team.\n${f["order.wow"]}` })],
  ["a block comment inside an aggregate", (f) => replace(f, "order.wow", "  @CreateAggregate\n", "  /* the only way in */\n  @CreateAggregate\n")],
  ["blank lines between declarations", (f) => ({ ...f, "order.wow": f["order.wow"]!.replace(/\n\n/g, "\n\n\n\n") })],
  [
    "a reformat: re-indented, fields on one line, then `wowc fmt`",
    (f) => {
      const messy = replace(f, "order.wow", "type OrderItem {\n  productId: string\n  quantity: int\n}", "type   OrderItem { productId : string ,quantity: int }")["order.wow"]!;
      const reindented = messy.replace(/^( +)/gm, "$1$1");
      return { ...f, "order.wow": formatText(reindented, "order.wow") };
    },
  ],
  [
    "declarations reordered in a file",
    (f) => {
      let g = replace(f, "order.wow", "enum OrderStatus { AWAITING_VALIDATION, AWAITING_PAYMENT, PAID, CANCELLED }\nenum CancelReason { OUT_OF_STOCK, PAYMENT_TIMEOUT, CUSTOMER }\n", "");
      g = { ...g, "order.wow": `${g["order.wow"]}\nenum CancelReason { OUT_OF_STOCK, PAYMENT_TIMEOUT, CUSTOMER }\nenum OrderStatus { AWAITING_VALIDATION, AWAITING_PAYMENT, PAID, CANCELLED }\n` };
      // Members too: the events of the aggregate in another order, a handler before another.
      g = replace(g, "order.wow", "  event OrderCreated { items: OrderItem[] }\n  event OrderStockItemConfirmed { productId: string }\n", "  event OrderStockItemConfirmed { productId: string }\n  event OrderCreated { items: OrderItem[] }\n");
      const cancel = '  @OnCommand(produces = [OrderCancelled])\n  @Retry(maxAttempts = 8, backoff = "1s", maxBackoff = "1m")\n  on CancelOrder\n';
      return replace(g, "order.wow", `  @OnCommand(produces = [OrderPaid])\n  on PayOrder\n\n${cancel}`, `${cancel}\n  @OnCommand(produces = [OrderPaid])\n  on PayOrder\n`);
    },
  ],
  [
    "a declaration moved to another file of the same context",
    (f) => {
      const g = replace(f, "order.wow", "/** Host-provided: how long an order waits for payment. */\nservice PaymentPolicy\n", "");
      const h = replace(g, "order.wow", "type OrderItem {\n  productId: string\n  quantity: int\n}\n", "");
      return { ...h, "order-parts.wow": "context eshop-order\n\ntype OrderItem {\n  productId: string\n  quantity: int\n}\n\n/** Host-provided: how long an order waits for payment. */\nservice PaymentPolicy\n" };
    },
  ],
];

const model: ReadonlyArray<readonly [string, (files: Files) => Files, string]> = [
  ["a field added", (f) => replace(f, "order.wow", "command PayOrder { amount: decimal }", "command PayOrder { amount: decimal, currency: string? }"), '"currency"'],
  ["a command renamed", (f) => replace(replace(f, "order.wow", "command PayOrder {", "command SettleOrder {"), "order.wow", "on PayOrder", "on SettleOrder"), '"SettleOrder"'],
  ["a field's type changed", (f) => replace(f, "order.wow", "quantity: int\n", "quantity: long\n"), '"long"'],
  ["fields reordered (their order is the factories' and the wire's)", (f) => replace(f, "order.wow", "  productId: string\n  quantity: int\n", "  quantity: int\n  productId: string\n"), '"quantity"'],
  ["enum values reordered", (f) => replace(f, "order.wow", "{ OUT_OF_STOCK, PAYMENT_TIMEOUT, CUSTOMER }", "{ CUSTOMER, OUT_OF_STOCK, PAYMENT_TIMEOUT }"), '"CUSTOMER"'],
  ["a doc comment changed", (f) => replace(f, "order.wow", "/** Host-provided: how long an order waits for payment. */", "/** Host-provided: the payment grace period. */"), "the payment grace period"],
  ["a job's cron changed", (f) => replace(f, "inventory.wow", 'cron = "0 0 6 * * *"', 'cron = "0 0 7 * * *"'), '"0 0 7 * * *"'],
];

describe("the manifest changes only when the model does", () => {
  const base = built(originals);

  it.each(neutral)("unchanged bytes: %s", (_, edit) => {
    const edited = edit(originals);
    expect(edited).not.toEqual(originals);
    const after = built(edited);
    expect(after.manifest).toBe(base.manifest);
  });

  it("the positions follow the sources: a comment line moves every line below it", () => {
    const after = built(neutral[0]![1](originals));
    const before = JSON.parse(base.sources).positions as Record<string, string>;
    const moved = JSON.parse(after.sources).positions as Record<string, string>;
    const order = "/contexts/eshop-order/aggregates/Order";
    expect(moved[order]).toBe(before[order]!.replace(/:(\d+)$/, (_, n: string) => `:${Number(n) + 1}`));
    expect(moved[order]).toBe(`order.wow:${originals["order.wow"]!.split("\n").indexOf("aggregate Order {") + 2}`);
  });

  it.each(model)("changed bytes: %s", (_, edit, shows) => {
    const after = built(edit(originals));
    expect(after.manifest).not.toBe(base.manifest);
    expect(after.manifest).toContain(shows);
  });
});

describe("the example's manifest carries no positions", () => {
  it("has no file:line anywhere, and the sources file has one for each declaration", () => {
    const { manifest, sources } = built(originals);
    expect(manifest).not.toMatch(/\.wow(:\d+)?"/);
    const positions = JSON.parse(sources) as { root: string; positions: Record<string, string> };
    expect(positions.root).toBe("..");
    expect(positions.positions["/contexts/eshop-order/aggregates/Order/commands/PayOrder"]).toBe(
      `order.wow:${originals["order.wow"]!.split("\n").indexOf("  command PayOrder { amount: decimal }") + 1}`,
    );
  });
});
