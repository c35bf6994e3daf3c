// The JSON Schema of a command's body (compiler/manifest/body-schema.ts): its exact shape for every
// kind of field, and — run through Ajv, draft 2020-12 — what it accepts and refuses of bodies as a
// client sends them over HTTP.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { bodySchema, declarationsOf, type JsonSchema } from "../../compiler/manifest/body-schema.js";
import type { ProgramModel } from "../../compiler/model.js";
import { compile } from "./helpers.js";

const sources = {
  "shop.wow": `
    context shop

    /** A line of an order. */
    type Line { sku: string, quantity: int, money: billing.Money? }
    enum Size { S, M, L }
    type Node { label: string, next: Node? }

    aggregate Order {
      state { n: int }
      /** Places an order. */
      @CreateAggregate
      command Place {
        /** What is ordered. */
        lines: Line[]
        size: Size
        at: instant
        within: duration?
        count: long
        gift: boolean?
        price: decimal
        tags: string[]?
        __proto__: string?
        tree: Node?
      }
      command Touch
      event Placed {}
      @OnCommand(produces = [Placed])
      on Place
      @OnCommand(produces = [Placed])
      on Touch
    }
  `,
  "billing.wow": `
    context billing
    /** An amount in a currency. */
    type Money { cents: long, currency: Currency }
    enum Currency { EUR, USD }
  `,
};

function schemaOf(command: string): JsonSchema {
  const result = compile(sources);
  expect(result.diagnostics).toEqual([]);
  const model: ProgramModel = result.model;
  const found = model.contexts.flatMap((c) => c.aggregates.flatMap((a) => a.commands)).find((c) => c.name === command)!;
  return bodySchema(found.fields, found.decl.doc, declarationsOf(model)).schema;
}

const int = { maximum: 2147483647, minimum: -2147483648, type: "integer" };
const long = { maximum: 9007199254740991, minimum: -9007199254740991, type: "integer" };
const orNull = (schema: object) => ({ anyOf: [schema, { type: "null" }] });

describe("a command's body schema", () => {
  it("is an object of exactly its fields, value types and enums from any context under $defs by qualified name", () => {
    // Through JSON: the schema's records have no prototype (a field may be called __proto__).
    expect(JSON.parse(JSON.stringify(schemaOf("Place")))).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      additionalProperties: false,
      description: "Places an order.",
      required: ["at", "count", "lines", "price", "size"],
      properties: {
        lines: { type: "array", items: { $ref: "#/$defs/shop.Line" }, description: "What is ordered." },
        size: { $ref: "#/$defs/shop.Size" },
        at: { anyOf: [{ type: "string", format: "date-time" }, { type: "integer" }], "x-wow-decode": "instant" },
        within: orNull({ anyOf: [{ type: "string", minLength: 1 }, { type: "integer", minimum: 0 }], "x-wow-decode": "duration" }),
        count: long,
        gift: orNull({ type: "boolean" }),
        price: { type: "number" },
        tags: orNull({ type: "array", items: { type: "string" } }),
        ["__proto__"]: orNull({ type: "string" }), // computed: a plain `__proto__:` key would set the prototype
        tree: orNull({ $ref: "#/$defs/shop.Node" }),
      },
      $defs: {
        "shop.Line": {
          type: "object",
          additionalProperties: false,
          description: "A line of an order.",
          required: ["quantity", "sku"],
          properties: { sku: { type: "string" }, quantity: int, money: orNull({ $ref: "#/$defs/billing.Money" }) },
        },
        "billing.Money": {
          type: "object",
          additionalProperties: false,
          description: "An amount in a currency.",
          required: ["cents", "currency"],
          properties: { cents: long, currency: { $ref: "#/$defs/billing.Currency" } },
        },
        "billing.Currency": { enum: ["EUR", "USD"] },
        "shop.Size": { enum: ["S", "M", "L"] },
        "shop.Node": { type: "object", additionalProperties: false, required: ["label"], properties: { label: { type: "string" }, next: orNull({ $ref: "#/$defs/shop.Node" }) } },
      },
    });
    // A field called __proto__ is a property of `properties`, not its prototype.
    const properties = schemaOf("Place")["properties"] as object;
    expect(Object.hasOwn(properties, "__proto__")).toBe(true);
  });

  it("of a command without fields takes only {}", () => {
    expect(JSON.parse(JSON.stringify(schemaOf("Touch")))).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      additionalProperties: false,
      required: [],
      properties: {},
      $defs: {},
    });
  });

  it("writes its keys in sorted order, the same bytes every time", () => {
    const text = JSON.stringify(schemaOf("Place"));
    expect(JSON.stringify(schemaOf("Place"))).toBe(text);
    const keysInOrder = (value: unknown): boolean =>
      typeof value !== "object" || value === null || Array.isArray(value)
        ? !Array.isArray(value) || value.every(keysInOrder)
        : Object.keys(value).every((k, i, all) => i === 0 || all[i - 1]! < k) && Object.values(value).every(keysInOrder);
    expect(keysInOrder(JSON.parse(text))).toBe(true);
  });

  it("accepts and refuses bodies as a JSON Schema validator reads it", () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    addFormats.default(ajv);
    ajv.addKeyword("x-wow-decode");
    const validate = ajv.compile(schemaOf("Place"));
    const valid = {
      lines: [{ sku: "mug", quantity: 2, money: { cents: 990, currency: "EUR" } }, { sku: "cup", quantity: 1, money: null }],
      size: "M",
      at: "2025-03-01T10:00:00+01:00",
      within: "15m",
      count: 9007199254740991,
      price: 9.9,
      tree: { label: "a", next: { label: "b" } },
    };
    const check = (body: unknown) => (validate(body) ? "ok" : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`).join("; "));
    expect(check(valid)).toBe("ok");
    expect(check({ ...valid, at: 1_740_819_600_000, within: 900_000, gift: null, tags: null })).toBe("ok");
    expect(check({ ...valid, extra: 1 })).toBe(" additionalProperties");
    expect(check({ ...valid, size: "XL" })).toBe("/size enum");
    expect(check({ ...valid, count: 9007199254740992 })).toBe("/count maximum");
    expect(check({ ...valid, lines: [{ sku: "mug", quantity: 2147483648 }] })).toBe("/lines/0/quantity maximum");
    expect(check({ ...valid, lines: [{ sku: "mug", quantity: 1.5 }] })).toBe("/lines/0/quantity type");
    expect(check({ ...valid, at: "yesterday" })).toContain("/at format");
    expect(check({ ...valid, within: "" })).toContain("/within minLength");
    const { price: _price, ...withoutPrice } = valid;
    expect(check(withoutPrice)).toBe(" required");
  });
});
