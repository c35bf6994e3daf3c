// The generated typed HTTP client (`client.ts`) against a live host: a create command and a command
// on the aggregate it made answer their typed events; a refused body and a rejection come back as
// typed errors with the status and code the host sent. Its types compile under the strictest
// options with the rest of the SDK (sdk-strict.test.ts, which includes client.ts).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitClient } from "../../compiler/emit/emit.js";
import { bodySchema, declarationsOf } from "../../compiler/manifest/body-schema.js";
import { compileSources } from "../../compiler/program/compile.js";
import { createHost, MemoryStore, reject, type AggregateRegistration, type WowHost } from "../../runtime/index.js";
import { tempDir } from "../compiler/build-cases.js";

const example = fileURLToPath(new URL("../../examples/eshop/", import.meta.url));
const model = compileSources(readdirSync(example).filter((f) => f.endsWith(".wow")).map((path) => ({ path, text: readFileSync(join(example, path), "utf8") }))).model;
const TOKEN = "client-test-token-0123456789";

let host: WowHost;
let client: any;
let createClient: (options: object) => any;

beforeAll(async () => {
  // The example's Order, with the body schemas its generated registration carries.
  const declarations = declarationsOf(model);
  const context = model.contexts.find((c) => c.name === "eshop-order")!;
  const aggregate = context.aggregates.find((a) => a.name === "Order")!;
  const schemaOf = (name: string) => bodySchema(aggregate.commands.find((c) => c.name === name)!.fields, undefined, declarations).schema;
  type State = { items: unknown[]; paid: boolean };
  const registration: AggregateRegistration<State> = {
    context: context.name,
    aggregate: aggregate.name,
    initialState: () => ({ items: [], paid: false }),
    commands: {
      "eshop-order.CreateOrder": { create: true, bodySchema: schemaOf("CreateOrder"), decide: (_s, c) => ({ kind: "events", events: [{ type: "eshop-order.OrderCreated", body: { items: (c.body as State).items } }] }) },
      "eshop-order.PayOrder": {
        bodySchema: schemaOf("PayOrder"),
        decide: (state, c) => {
          if (state.paid) reject("IllegalState", "an order PAID cannot be paid");
          return { kind: "events", events: [{ type: "eshop-order.OrderPaid", body: { amount: (c.body as { amount: number }).amount, at: 1 } }] };
        },
      },
    },
    events: { "eshop-order.OrderCreated": (s, e) => ({ ...s, items: (e.body as State).items }), "eshop-order.OrderPaid": (s) => ({ ...s, paid: true }) },
  };
  host = createHost({ registrations: [registration], store: new MemoryStore(), http: { credentials: [{ token: TOKEN }] }, onError: () => {} });
  await host.start();
  const server = await host.listen(0);
  // client.ts imports only types: compiled to JavaScript, it runs on its own.
  const js = ts.transpileModule(emitClient(model).text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const file = join(tempDir(), "client.mjs");
  writeFileSync(file, js);
  ({ createClient } = (await import(pathToFileURL(file).href)) as { createClient: (options: object) => any });
  client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, token: TOKEN, tenantId: "acme" });
});

afterAll(async () => {
  await host?.stop();
});

describe("the generated client against a live host", () => {
  it("has a method per command of each aggregate, named as the SDK names them", () => {
    expect(Object.keys(client).sort()).toEqual(["order", "stock"]);
    expect(Object.keys(client.order)).toEqual(["createOrder", "confirmOrderStock", "payOrder", "cancelOrder"]);
  });

  it("sends a create command and one on the aggregate it made, and gets their events", async () => {
    const created = await client.order.createOrder({ items: [{ productId: "mug", quantity: 2 }] }, { requestId: "create-1", waitStage: "PROCESSED" });
    expect(created).toMatchObject({ ok: true, status: 200, aggregateVersion: 1, requestId: "create-1" });
    expect(created.events).toEqual([{ type: "eshop-order.OrderCreated", body: { items: [{ productId: "mug", quantity: 2 }] }, version: 1 }]);
    const paid = await client.order.payOrder(created.aggregateId, { amount: 12.5 }, { expectedVersion: 1 });
    expect(paid).toMatchObject({ ok: true, aggregateVersion: 2, events: [{ type: "eshop-order.OrderPaid", body: { amount: 12.5, at: 1 } }] });
  });

  it("gives a rejection, a refused body, a version conflict and a missing tenant as typed errors", async () => {
    const created = await client.order.createOrder({ items: [] });
    expect((await client.order.payOrder(created.aggregateId, { amount: 1 })).ok).toBe(true);
    expect(await client.order.payOrder(created.aggregateId, { amount: 1 })).toEqual({ ok: false, status: 400, errorCode: "IllegalState", errorMsg: "an order PAID cannot be paid" });
    const refused = await client.order.payOrder(created.aggregateId, { amount: "one" });
    expect(refused).toMatchObject({ ok: false, status: 400, errorCode: "CommandValidation" });
    expect(refused.errorMsg).toContain("amount");
    expect(await client.order.payOrder(created.aggregateId, { amount: 1 }, { expectedVersion: 0 })).toMatchObject({ ok: false, status: 409 });
    expect(await client.order.payOrder("no-such-order", { amount: 1 })).toMatchObject({ ok: false, status: 404, errorCode: "NotFound" });
    // No tenant anywhere: nothing is sent.
    const untenanted = createClient({ baseUrl: "http://127.0.0.1:9", token: TOKEN });
    await expect(untenanted.order.payOrder(created.aggregateId, { amount: 1 })).rejects.toThrow("no tenant: give createClient({ tenantId }) or the call's options.tenantId");
  });
});
