// The manifest against its schema, beyond the e-shop example: doc comments of handlers and of the
// state block are carried, every relative path the compiler writes fits the positions' schema, the schema refuses
// manifests the compiler cannot write, and an indented doc comment keeps its relative indentation.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { textOf } from "../../compiler/emit/emit.js";
import type { Manifest } from "../../compiler/manifest/types.js";
import { build } from "../../compiler/program/build.js";
import { tempDir } from "./build-cases.js";

const schemaPath = fileURLToPath(new URL("../../schemas/wow-manifest.schema.json", import.meta.url));
const golden = fileURLToPath(new URL("./golden/eshop/wow-manifest.json", import.meta.url));
const sourcesSchemaPath = fileURLToPath(new URL("../../schemas/wow-manifest.sources.schema.json", import.meta.url));
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(readFileSync(schemaPath, "utf8")));
const validateSources = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(readFileSync(sourcesSchemaPath, "utf8")));

/** The build of `files` (path → text, relative to a fresh root), which must compile cleanly. */
function buildOf(files: Record<string, string>) {
  const root = tempDir();
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const result = build({ root, write: false, manifest: true });
  expect(result.diagnostics).toEqual([]);
  return result;
}

function manifestOf(files: Record<string, string>): Manifest {
  return JSON.parse(textOf(buildOf(files).manifestFile!)) as Manifest;
}

function expectValid(manifest: unknown): void {
  expect(validate(manifest), JSON.stringify(validate.errors, null, 2)).toBe(true);
}

const documented = `context shop
service Clock
aggregate Cart {
  /** What a cart holds. */
  state { items: int }
  command OpenCart {}
  command Close {}
  event Opened {}
  /** Opens the cart. */
  @OnCommand(produces = [Opened])
  on OpenCart(clock: Clock)
  on Close
}
saga Carts {
  /** Closes the cart it opened. */
  @OnEvent(commands = [Close])
  on Opened
  /** When closing failed. */
  @OnRejected
  on Close
  /** Sweeps every night. */
  @OnSchedule(name = "sweep", cron = "0 0 3 * * *")
  job sweep
}
`;

describe("manifest doc comments", () => {
  it("carries the doc comments of command, event and rejection handlers, jobs and the state block, and fits the schema", () => {
    const manifest = manifestOf({ "shop.wow": documented });
    const shop = manifest.contexts.shop!;
    const cart = shop.aggregates.Cart!;
    expect(cart.stateDoc).toBe("What a cart holds.");
    expect(cart.commands.OpenCart!.handler.doc).toBe("Opens the cart.");
    expect(shop.sagas.Carts!.eventHandlers["shop.Opened"]!.doc).toBe("Closes the cart it opened.");
    expect(shop.sagas.Carts!.rejectionHandlers["shop.Close"]!.doc).toBe("When closing failed.");
    expect(shop.jobs.sweep!.doc).toBe("Sweeps every night.");
    expectValid(manifest);
    // only where there is one
    expect(cart.commands.Close!.handler).not.toHaveProperty("doc");
    const bare = manifestOf({ "shop.wow": documented.replace(/\/\*\*.*\*\/\n/g, "") });
    expect(bare.contexts.shop!.aggregates.Cart).not.toHaveProperty("stateDoc");
    expect(bare.contexts.shop!.sagas.Carts!.eventHandlers["shop.Opened"]).not.toHaveProperty("doc");
    expectValid(bare);
  });

  it("keeps the relative indentation of a doc comment's lines, with or without leading '*'", () => {
    const plain = `/**\n   Usage:\n     stock.reserve(3)\n\n   Then confirm.\n */\ntype Plain { text: string }\n`;
    const starred = `/**\n * Usage:\n *   stock.reserve(3)\n */\ntype Starred { text: string }\n/** One line. */\ntype Line { text: string }\n`;
    const types = manifestOf({ "shop.wow": `context shop\n${plain}${starred}` }).contexts.shop!.types;
    expect(types.Plain!.doc).toBe("Usage:\n  stock.reserve(3)\n\nThen confirm.");
    expect(types.Starred!.doc).toBe("Usage:\n  stock.reserve(3)");
    expect(types.Line!.doc).toBe("One line.");
  });
});

describe("manifest positions", () => {
  it("fit the schema for every file name the compiler builds, colons and dots included", () => {
    const names = [":x.wow", "a::b.wow", "sub/c:12.wow", "..x.wow", "dir.d/...wow", "sp ace/é.wow"];
    const files = Object.fromEntries(names.map((name, i) => [name, `context shop\ntype T${i} { n: int }\n`]));
    const result = buildOf(files);
    const positions = result.sources!.positions();
    expect(positions["/contexts/shop/types/T0"]).toBe(":x.wow:2");
    expect(positions["/contexts/shop/types/T2/fields/0"]).toBe("sub/c:12.wow:2");
    expectValid(JSON.parse(textOf(result.manifestFile!)));
    expect(validateSources({ root: "..", positions }), JSON.stringify(validateSources.errors)).toBe(true);
  });

  it.each([
    ["an absolute source", "/home/me/order.wow:3"],
    ["a source with a '..' segment", "../order.wow:3"],
    ["a source with an empty segment", "a//order.wow:3"],
    ["a source without a line", "order.wow"],
  ])("refuses %s", (_, source) => {
    expect(validateSources({ root: "..", positions: { "/contexts/shop": source } })).toBe(false);
  });
});

type Mutation = readonly [title: string, mutate: (m: any) => void];

const order = (m: any) => m.contexts["eshop-order"];
const orderAggregate = (m: any) => order(m).aggregates.Order;

/** Each a small change to the e-shop manifest that no build can write. */
const mutations: readonly Mutation[] = [
  ["a source position (positions are in wow-manifest.sources.json)", (m) => (orderAggregate(m).source = "order.wow:3")],
  ["a context's list of files", (m) => (order(m).sources = ["order.wow"])],
  ["a create command routed DELETE", (m) => (orderAggregate(m).commands.CreateOrder.route.method = "DELETE")],
  ["a create command whose route has an {id}", (m) => (orderAggregate(m).commands.CreateOrder.route.path = "/eshop-order/tenant/{tenantId}/order/{id}/create_order")],
  ["a plain command routed POST", (m) => (orderAggregate(m).commands.PayOrder.route.method = "POST")],
  ["a delete command routed PUT", (m) => Object.assign(orderAggregate(m).commands.PayOrder, { delete: true })],
  ["a command both create and delete", (m) => Object.assign(orderAggregate(m).commands.CreateOrder, { delete: true })],
  ["a route path outside the route grammar", (m) => (orderAggregate(m).commands.PayOrder.route.path = "/pay")],
  ["an empty aggregate name", (m) => (orderAggregate(m).name = "")],
  ["a declaration name with '-'", (m) => (order(m).types.OrderItem.name = "order-item")],
  ["an empty field name", (m) => (order(m).types.OrderItem.fields[0].name = "")],
  ["a field name starting with a digit", (m) => (order(m).types.OrderItem.fields[0].name = "1st")],
  ["an empty doc", (m) => (orderAggregate(m).doc = "")],
  ["a type keyed by a non-name", (m) => (order(m).types["not a name"] = order(m).types.OrderItem)],
  ["an aggregate keyed by an empty name", (m) => (order(m).aggregates[""] = orderAggregate(m))],
  ["a context keyed by a non-context name", (m) => (m.contexts.Orders = order(m))],
  ["an event handler keyed by a bare name", (m) => {
    const handlers = m.contexts["eshop-inventory"].sagas.StockSaga.eventHandlers;
    handlers.StockReserved = handlers["eshop-inventory.StockReserved"];
  }],
  ["a job keyed by __proto__", (m) => {
    const jobs = m.contexts["eshop-inventory"].jobs;
    Object.defineProperty(jobs, "__proto__", { value: jobs["receive-deliveries"], enumerable: true });
  }],
  ["duplicated produces", (m) => {
    const handler = orderAggregate(m).commands.CreateOrder.handler;
    handler.produces = [handler.produces[0], handler.produces[0]];
  }],
  ["a built-in type that is not one", (m) => (order(m).types.OrderItem.fields[0].type = { kind: "builtin", name: "float", array: false, optional: false })],
  ["a declared type without its context", (m) => (orderAggregate(m).state[0].type = { kind: "type", name: "OrderItem", array: true, optional: false })],
  ["an empty cron", (m) => (m.contexts["eshop-inventory"].jobs["receive-deliveries"].cron = "")],
  ["a subscription that is not <saga>.<function>", (m) => (m.contexts["eshop-inventory"].jobs["receive-deliveries"].subscription = "receiveDeliveries")],
];

describe("manifest schema", () => {
  it("accepts the golden manifests", () => {
    expectValid(JSON.parse(readFileSync(golden, "utf8")));
  });

  it.each(mutations)("refuses %s", (_, mutate) => {
    const manifest = JSON.parse(readFileSync(golden, "utf8"));
    mutate(manifest);
    expect(validate(manifest)).toBe(false);
  });
});
