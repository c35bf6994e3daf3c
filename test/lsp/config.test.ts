// `wow.config.json` in an editor: checked against the schema the declarations generate (WOW6007 at
// the key or value at fault), the schema's association told to the client, and served on request.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyExample, LspClient, range, uriOf } from "./client.js";

let dir: string;
let client: LspClient;
let config: string;

beforeAll(async () => {
  dir = copyExample();
  client = new LspClient();
  await client.initialize(dir, { debounceMs: 20 });
  config = uriOf(join(dir, "wow.config.json"));
});

afterAll(async () => {
  await client.close();
});

describe("wowc lsp and wow.config.json", () => {
  it("checks the file on disk once the build has run, and tells the client the schema of each config file", async () => {
    expect((await client.diagnostics(config, 0)).diagnostics).toEqual([]);
    const told = await client.until("the schema association", () => client.notifications.find((n) => n.method === "wow/schemaAssociations"));
    const { associations } = told.params as { associations: Array<{ fileMatch: string[]; uri: string }> };
    expect(associations).toEqual([{ fileMatch: [config], uri: `wowc-schema://schema${new URL(uriOf(dir)).pathname}/wow.config.schema.json` }]);
    const schema = await client.request<{ properties: { wow: { properties: { schedules: { properties: Record<string, unknown> } } } } }>("wow/configSchema", { uri: associations[0]!.uri });
    expect(Object.keys(schema.properties.wow.properties.schedules.properties)).toEqual(["receive-deliveries"]);
  });

  it("reports an unknown job at its key, with the declared job as a quick fix", async () => {
    await client.open(join(dir, "wow.config.json"));
    const from = client.published.length;
    await client.replace(config, '"receive-deliveries"', '"receive-delivery"');
    const published = await client.diagnostics(config, from, (p) => p.diagnostics.length > 0);
    expect(published.diagnostics.map((d) => [d.code, d.range, d.message])).toEqual([
      [
        "WOW6007",
        range(4, 6, 4, 24),
        "wow.config.json does not fit the declarations: '/wow/schedules' has no setting 'receive-delivery' (it takes: receive-deliveries).\nhint: Did you mean 'receive-deliveries'? The file's schema is generated from the `.wow` sources (`wow.schedules` holds the declared jobs, by name; `wowc build` writes it to generated/wow.config.schema.json), and the runtime refuses a file that does not fit it when it starts.",
      ],
    ]);
    const actions = await client.request<Array<{ title: string; edit: { changes: Record<string, unknown> } }>>("textDocument/codeAction", { textDocument: { uri: config }, range: range(4, 6, 4, 24), context: { diagnostics: published.diagnostics } });
    expect(actions.map((a) => [a.title, a.edit.changes[config]])).toEqual([["Change to '\"receive-deliveries\"'", [{ range: range(4, 6, 4, 24), newText: '"receive-deliveries"' }]]]);
  });

  it("reports a value out of its range at the value, and a file that is not JSON where it stops being JSON", async () => {
    let from = client.published.length;
    await client.replace(config, '"receive-delivery"', '"receive-deliveries"');
    await client.replace(config, '"max-attempts": 5', '"max-attempts": 0');
    const published = await client.diagnostics(config, from, (p) => p.diagnostics.some((d) => d.message.includes("max-attempts")));
    expect(published.diagnostics.map((d) => [d.code, d.range, d.message.split("\n")[0]])).toEqual([
      ["WOW6007", range(6, 58, 6, 59), "wow.config.json does not fit the declarations: '/wow/timers/max-attempts' must be >= 1."],
    ]);
    from = client.published.length;
    await client.replace(config, '"max-attempts": 0', '"max-attempts": 5,');
    const broken = await client.diagnostics(config, from, (p) => p.diagnostics.some((d) => d.message.includes("not valid JSON")));
    expect(broken.diagnostics.map((d) => [d.code, d.range, d.message.split("\n")[0]])).toEqual([
      ["WOW6007", range(6, 61, 6, 62), "wow.config.json does not fit the declarations: it is not valid JSON (unexpected '}': expected a string)."],
    ]);
    from = client.published.length;
    await client.replace(config, '"max-attempts": 5,', '"max-attempts": 5');
    expect((await client.diagnostics(config, from, (p) => p.diagnostics.length === 0)).diagnostics).toEqual([]);
  });

  it("checks the file against the jobs as declared now", async () => {
    const inventory = await client.open(join(dir, "inventory.wow"));
    const from = client.published.length;
    await client.replace(inventory, 'name = "receive-deliveries"', 'name = "deliveries"');
    const published = await client.diagnostics(config, from, (p) => p.diagnostics.some((d) => d.message.includes("takes: deliveries")));
    expect(published.diagnostics.map((d) => [d.range, d.message.split("\n")[0]])).toEqual([
      [range(4, 6, 4, 26), "wow.config.json does not fit the declarations: '/wow/schedules' has no setting 'receive-deliveries' (it takes: deliveries)."],
    ]);
  });
});
