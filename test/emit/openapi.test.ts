// `<out>/openapi.json` of the example: a valid OpenAPI 3.1 document (Redocly's validator), written
// deterministically by `wowc build`, whose body schemas are the ones the runtime validates with. A
// request built from it is accepted by a live host; a wrong body is refused by the document's schema
// and by the host, both naming the same field.
import { readdirSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitOpenApi, openApiDocument } from "../../compiler/emit/openapi.js";
import { bodySchema, declarationsOf } from "../../compiler/manifest/body-schema.js";
import { canonicalJson } from "../../compiler/manifest/json.js";
import type { ProgramModel } from "../../compiler/model.js";
import { build } from "../../compiler/program/build.js";
import { compileSources } from "../../compiler/program/compile.js";
import { createHost, MemoryStore, type AggregateRegistration, type WowHost } from "../../runtime/index.js";
import { tempDir } from "../compiler/build-cases.js";

const example = fileURLToPath(new URL("../../examples/eshop/", import.meta.url));
const sources = readdirSync(example)
  .filter((f) => f.endsWith(".wow"))
  .map((path) => ({ path, text: readFileSync(join(example, path), "utf8") }));
const model: ProgramModel = compileSources(sources).model;
const doc = openApiDocument(model) as any;
const TOKEN = "openapi-test-token-0123456789";

describe("openapi.json of the example", () => {
  it("is valid OpenAPI 3.1 for Redocly's validator (no error, no warning of its recommended rules)", async () => {
    // The probes answer 200 or 503 only, without a credential: they have no 4xx to document.
    const config = await createConfig({ extends: ["recommended"], rules: { "info-license": "off", "operation-4xx-response": "off" } });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: "openapi.json", config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
  });

  it("has every command route with its headers, body, result and errors, the admin routes and bearer security", () => {
    const put = doc.paths["/eshop-order/tenant/{tenantId}/order/{id}/confirm_order_stock"].put;
    expect(put.operationId).toBe("eshop-order.ConfirmOrderStock");
    expect(put.parameters.map((p: any) => p.name ?? p.$ref)).toEqual([
      "#/components/parameters/TenantId", "id", "#/components/parameters/RequestId", "#/components/parameters/AggregateVersion", "#/components/parameters/WaitStage", "#/components/parameters/WaitTimeout",
    ]);
    expect(Object.keys(put.responses).sort()).toEqual(["200", "400", "401", "403", "404", "409", "410"]);
    expect(put.responses["200"]).toEqual({ $ref: "#/components/responses/CommandResult" });
    expect(doc.components.responses.CommandResult.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/CommandResult" });
    expect(doc.components.parameters.TenantId).toMatchObject({ in: "path", name: "tenantId", required: true });
    expect(doc.paths["/eshop-order/tenant/{tenantId}/order/create_order"].post.parameters.map((p: any) => p.$ref)).toContain("#/components/parameters/AggregateId");
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths["/wow/ready"].get.security).toEqual([]);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/wow/jobs", "/wow/timers", "/wow/parked", "/{context}/schedule/{instance}/{command}"]));
    // Doc comments are descriptions.
    expect(doc.components.schemas["eshop-order.OrderItem"]).toBeDefined();
    expect(doc.tags.find((t: any) => t.name === "eshop-order")).toBeDefined();
  });

  it("holds the body schema the registrations carry, with its $defs under components/schemas", () => {
    const declarations = declarationsOf(model);
    for (const context of model.contexts) {
      for (const aggregate of context.aggregates) {
        for (const command of aggregate.commands) {
          const { schema } = bodySchema(command.fields, command.decl.doc, declarations);
          const { $defs, $schema: _dialect, ...body } = schema as any;
          const refs = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
          expect(doc.components.schemas[`${context.name}.${command.name}`]).toEqual(refs(body));
          for (const [name, def] of Object.entries($defs ?? {})) expect(doc.components.schemas[name]).toEqual(refs(def));
        }
      }
    }
  });

  it("is written by wowc build, and the same bytes on every build", () => {
    const out = tempDir();
    expect(build({ root: example, outDir: out, write: true }).diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const written = readFileSync(join(out, "openapi.json"), "utf8");
    expect(written).toBe(emitOpenApi(model).text);
    expect(emitOpenApi(compileSources([...sources].reverse()).model).text).toBe(written);
  });

  it("is canonical JSON (keys sorted at every level), as the document is built in that order", () => {
    expect(emitOpenApi(model).text).toBe(canonicalJson(doc));
  });
});

describe("openapi.json's operations", () => {
  // Every shape of operation (create, change, delete; with and without a description), and words
  // that JSON must escape, printed from templates: the text is the document's canonical JSON.
  const source = `context shapes

aggregate Thing {
  state { n: int }
  /** Makes a "thing" \\ with a tab\tand é, ☃ and 😀. */
  @CreateAggregate
  command MakeThing { n: int }
  command TouchThing { }
  @DeleteAggregate
  command DropThing { }
  event ThingMade { n: int }
  event ThingDropped { }

  @OnCommand(produces = [ThingMade])
  on MakeThing
  /** Changes it: a line
   * and another. */
  @OnCommand(produces = [])
  on TouchThing
  @OnCommand(produces = [ThingDropped])
  on DropThing
}
`;

  it("prints each shape as the document holds it, words escaped as JSON strings", () => {
    const compiled = compileSources([{ path: "shapes.wow", text: source }]);
    expect(compiled.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const object = openApiDocument(compiled.model) as any;
    const text = emitOpenApi(compiled.model).text;
    expect(text).toBe(canonicalJson(object));
    const operations = Object.values(JSON.parse(text).paths as Record<string, Record<string, any>>).flatMap((item) => Object.entries(item));
    const byId = Object.fromEntries(operations.map(([method, op]) => [op.operationId, { method, ...op }]));
    expect(byId["shapes.MakeThing"]).toMatchObject({ method: "post", summary: "Create a Thing: MakeThing", description: expect.stringContaining('"thing"') });
    expect(byId["shapes.TouchThing"]).toMatchObject({ method: "put", summary: "Change a Thing: TouchThing", description: expect.stringContaining("a line") });
    expect(byId["shapes.DropThing"]).toMatchObject({ method: "delete", summary: "Delete a Thing: DropThing" });
    expect(byId["shapes.DropThing"].description).toBeUndefined();
    expect(byId["shapes.MakeThing"].description).toContain("😀");
  });
});

describe("a live host and the document agree", () => {
  let host: WowHost;
  let base: string;

  beforeAll(async () => {
    // The order aggregate of the example, registered with the body schemas its generated registration carries.
    const declarations = declarationsOf(model);
    const context = model.contexts.find((c) => c.name === "eshop-order")!;
    const aggregate = context.aggregates.find((a) => a.name === "Order")!;
    const registration: AggregateRegistration<{ items: unknown[] }> = {
      context: context.name,
      aggregate: aggregate.name,
      initialState: () => ({ items: [] }),
      commands: Object.fromEntries(
        aggregate.commands.map((command) => [
          `${context.name}.${command.name}`,
          {
            ...(command.create ? { create: true } : {}),
            bodySchema: bodySchema(command.fields, command.decl.doc, declarations).schema,
            decide: (_state: unknown, message: { body: { items?: unknown[] } }) => ({ kind: "events", events: [{ type: "eshop-order.OrderCreated", body: { items: message.body.items ?? [] } }] }),
          },
        ]),
      ) as AggregateRegistration["commands"],
      events: { "eshop-order.OrderCreated": (state, event) => ({ ...state, items: (event.body as { items: unknown[] }).items }) },
    };
    host = createHost({ registrations: [registration], store: new MemoryStore(), http: { credentials: [{ token: TOKEN }] }, onError: () => {} });
    await host.start();
    const server = await host.listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await host?.stop();
  });

  /** The request the document describes for `operationId`, with `body`. */
  function request(operationId: string, body: unknown): { method: string; url: string; schema: object } {
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (operation.operationId !== operationId) continue;
        const url = base + path.replace("{tenantId}", "acme").replace("{id}", "order-1");
        return { method: method.toUpperCase(), url, schema: operation.requestBody.content["application/json"].schema };
      }
    }
    throw new Error(`no operation ${operationId}; body ${JSON.stringify(body)}`);
  }

  /** The document's schema for a body: its `$ref` resolved within the document's components. */
  function validator(schema: object) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: "openapi.json", components: doc.components });
    return ajv.compile({ $ref: `openapi.json${(schema as { $ref: string }).$ref}` });
  }

  const send = async (method: string, url: string, body: unknown) => {
    const response = await fetch(url, { method, headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json", "command-request-id": `r-${Math.random()}` }, body: JSON.stringify(body) });
    return { status: response.status, json: (await response.json()) as { errorCode: string; errorMsg: string } };
  };

  it("accepts a request built from the document", async () => {
    const body = { items: [{ productId: "mug", quantity: 2 }] };
    const { method, url, schema } = request("eshop-order.CreateOrder", body);
    expect(validator(schema)(body)).toBe(true);
    const reply = await send(method, url, body);
    expect(reply.status, JSON.stringify(reply.json)).toBe(200);
    expect(reply.json.errorCode).toBe("Ok");
  });

  it("refuses a wrong body in the document's schema and in the host, naming the same field", async () => {
    const body = { items: [{ productId: "mug", quantity: "two" }] };
    const { method, url, schema } = request("eshop-order.CreateOrder", body);
    const validate = validator(schema);
    expect(validate(body)).toBe(false);
    expect(validate.errors!.map((e) => e.instancePath)).toContain("/items/0/quantity");
    const reply = await send(method, url, body);
    expect(reply.status).toBe(400);
    expect(reply.json.errorCode).toBe("CommandValidation");
    expect(reply.json.errorMsg).toContain("items[0].quantity");
  });
});
