// The e-shop manifest: golden file (refresh with UPDATE_GOLDEN=1), valid against the shipped JSON
// Schema, and byte-identical whatever the working directory or the order the files are given in.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { build } from "../../compiler/program/build.js";
import { commandRoute, snakeCase } from "../../compiler/manifest/routes.js";
import { MANIFEST_SCHEMA_ID } from "../../compiler/manifest/types.js";
import { tempDir } from "./build-cases.js";
import { textOf } from "../../compiler/emit/emit.js";

const example = fileURLToPath(new URL("../../examples/eshop/", import.meta.url));
const golden = fileURLToPath(new URL("./golden/eshop/wow-manifest.json", import.meta.url));
const schemaPath = fileURLToPath(new URL("../../schemas/wow-manifest.schema.json", import.meta.url));

function eshopManifest(files?: string[]): string {
  const result = build({ root: example, write: false, manifest: true, ...(files === undefined ? {} : { files }) });
  expect(result.diagnostics).toEqual([]);
  return textOf(result.manifestFile!);
}

describe("manifest", () => {
  it("matches the golden file", () => {
    const text = eshopManifest();
    if (process.env.UPDATE_GOLDEN === "1") {
      mkdirSync(dirname(golden), { recursive: true });
      writeFileSync(golden, text);
    }
    expect(text).toBe(readFileSync(golden, "utf8"));
  });

  it("ships its schema where a consumer imports it: wowc/schemas/wow-manifest.schema.json", () => {
    const resolved = createRequire(import.meta.url).resolve("wowc/schemas/wow-manifest.schema.json");
    expect(resolved).toBe(schemaPath);
  });

  it("validates against schemas/wow-manifest.schema.json", () => {
    const schema = JSON.parse(readFileSync(schemaPath, "utf8"));
    expect(schema.$id).toBe(MANIFEST_SCHEMA_ID);
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    const validate = ajv.compile(schema);
    const manifest = JSON.parse(eshopManifest());
    expect(validate(manifest), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // and the schema is strict: an unknown key is refused
    manifest.contexts["eshop-order"].surprise = true;
    expect(validate(manifest)).toBe(false);
  });

  it("is deterministic: same bytes from another cwd and with the files in reverse order", () => {
    const first = eshopManifest();
    const files = readdirSync(example).filter((f) => f.endsWith(".wow"));
    const cwd = process.cwd();
    let second: string;
    try {
      process.chdir(tempDir());
      second = eshopManifest([...files].sort().reverse());
    } finally {
      process.chdir(cwd);
    }
    expect(second).toBe(first);
    expect(first.endsWith("}\n")).toBe(true);
    expect(first).not.toContain("\r");
    expect(first).not.toContain(example);
  });

  it("describes routes, schedules and jobs as documented", () => {
    const m = JSON.parse(eshopManifest());
    const order = m.contexts["eshop-order"].aggregates.Order;
    expect(order.commands.ConfirmOrderStock.route).toEqual({ method: "PUT", path: "/eshop-order/tenant/{tenantId}/order/{id}/confirm_order_stock" });
    expect(order.commands.CreateOrder.route).toEqual({ method: "POST", path: "/eshop-order/tenant/{tenantId}/order/create_order" });
    expect(order.commands.ConfirmOrderStock.handler.schedules).toEqual([{ command: "eshop-order.CancelOrder", targetRequired: false }]);
    expect(order.commands.ConfirmOrderStock.handler.services).toEqual([{ name: "paymentPolicy", service: "eshop-order.PaymentPolicy" }]);
    const inventory = m.contexts["eshop-inventory"];
    expect(inventory.jobs["receive-deliveries"]).toMatchObject({
      cron: "0 0 6 * * *",
      zone: "UTC",
      scope: "SYSTEM",
      sharded: false,
      misfire: "COALESCE",
      blocking: true,
      saga: "StockSaga",
      function: "receiveDeliveries",
      subscription: "StockSaga.receiveDeliveries",
      commands: ["eshop-inventory.ReceiveStock"],
    });
    expect(inventory.sagas.StockSaga.eventHandlers["eshop-inventory.StockReserved"].schedules).toEqual([
      { command: "eshop-inventory.ReleaseStock", targetRequired: true },
    ]);
    expect(Object.keys(inventory.sagas.StockSaga.rejectionHandlers)).toEqual(["eshop-inventory.ReserveStock"]);
  });

  it("snake_cases names and picks the method from create/delete", () => {
    expect(snakeCase("ConfirmOrderStock")).toBe("confirm_order_stock");
    expect(snakeCase("HTTPRequest2")).toBe("http_request2");
    expect(commandRoute("a", "Cart", "DropCart", { create: false, delete: true })).toEqual({ method: "DELETE", path: "/a/tenant/{tenantId}/cart/{id}/drop_cart" });
  });
});
