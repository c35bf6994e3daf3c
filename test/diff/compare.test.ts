// Changes the one-fixture-per-rule cases do not show: changes inside a renamed element, and the
// subscriptions of jobs and saga handlers.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtOf, diffBuilt, fixturesDir, type Built } from "./helpers.js";

/** The sources of a fixture's `previous/`, each edited with `[from, to]` replacements (which must apply). */
function edited(fixture: string, edits: ReadonlyArray<readonly [string, string]> = []): Built {
  const dir = join(fixturesDir, fixture, "previous");
  const files = readdirSync(dir).filter((f) => f.endsWith(".wow")).map((path) => ({ path, text: readFileSync(join(dir, path), "utf8") }));
  for (const [from, to] of edits) {
    const file = files.find((f) => f.text.includes(from));
    if (file === undefined) throw new Error(`edit not applicable: ${from}`);
    file.text = file.text.split(from).join(to);
  }
  return builtOf(files);
}

/** `RULE:element` of every change, sorted. */
const keys = (previous: Built, current: Built) => diffBuilt(previous, current).changes.map((c) => `${c.rule}:${c.element}`).sort();

describe("a rename does not hide the changes inside the renamed element", () => {
  const base = () => edited("AGGREGATE_NO_RENAME");

  it("aggregate: its commands, events and state are compared too", () => {
    const current = edited("AGGREGATE_NO_RENAME", [
      ["aggregate Invoice {", "aggregate Bill {"],
      ["command Issue { amount: decimal }", "command Issue { amount: string }"],
      ["event Voided {}", "event Voided { reason: string }"],
    ]);
    // Routes change with the name: that is the rename, not reported again (ROUTE_SAME).
    expect(keys(base(), current)).toEqual(["AGGREGATE_NO_RENAME:billing.Invoice", "FIELD_NO_ADD_REQUIRED:billing.Bill.Voided.reason", "FIELD_SAME_TYPE:billing.Bill.Issue.amount"]);
  });

  it("context: its enums, types, aggregates and jobs are compared too", () => {
    const current = edited("AGGREGATE_NO_RENAME", [
      ["context shop", "context store"],
      ["enum Color { RED, GREEN }", "enum Color { RED }"],
      ['cron = "0 0 2 * * *"', 'cron = "0 0 3 * * *"'],
      ["command AddItem { item: Item }", "command AddItem { item: Item, qty: int }"],
    ]);
    // Qualified names (store.Item, store.CloseCart) and routes change with the name: not reported again.
    expect(keys(base(), current)).toEqual(["CONTEXT_NO_RENAME:shop", "ENUM_VALUE_NO_DELETE:store.Color.GREEN", "FIELD_NO_ADD_REQUIRED:store.Cart.AddItem.qty", "JOB_CRON_CHANGED:store.nightly"]);
    // A removed element points at its old file, whose name is not a qualified name.
    const removed = diffBuilt(base(), current).changes.find((c) => c.rule === "ENUM_VALUE_NO_DELETE");
    expect(removed).toMatchObject({ source: "shop.wow:3", side: "previous" });
  });

  it("job: its schedule is compared too", () => {
    const current = edited("AGGREGATE_NO_RENAME", [['name = "nightly", cron = "0 0 2 * * *"', 'name = "nightly2", cron = "0 0 4 * * *"']]);
    expect(keys(base(), current)).toEqual(["JOB_CRON_CHANGED:shop.nightly2", "JOB_NO_RENAME:shop.nightly"]);
  });
});

describe("the durable subscriptions of jobs and saga handlers", () => {
  const base = () => edited("SUBSCRIPTION_NO_RENAME");
  const messages = (current: Built) => diffBuilt(base(), current).changes.map((c) => `${c.rule}:${c.element} ${c.message}`);

  it("a job's function renamed: its ticks come through a new subscription", () => {
    expect(messages(edited("SUBSCRIPTION_NO_RENAME", [["job nightly(", "job touchAll("]]))).toEqual([
      "SUBSCRIPTION_NO_RENAME:shop.nightly Job nightly is delivered by subscription Reminders.touchAll (was Reminders.nightly): it starts at the beginning, so past ticks are handled again.",
    ]);
  });

  it("a saga renamed: every handler's and job's subscription changes", () => {
    expect(keys(base(), edited("SUBSCRIPTION_NO_RENAME", [["saga Reminders {", "saga Nudges {"]]))).toEqual([
      "SUBSCRIPTION_NO_RENAME:shop.Nudges.onCartOpened",
      "SUBSCRIPTION_NO_RENAME:shop.Nudges.onCloseCartRejected",
      "SUBSCRIPTION_NO_RENAME:shop.nightly",
    ]);
  });

  it("a job sharded or no longer sharded: one subscription per partition, or one for all", () => {
    const plain = base();
    const sharded = edited("SUBSCRIPTION_NO_RENAME", [["misfire = COALESCE, commands", "misfire = COALESCE, sharded = true, commands"]]);
    expect(keys(plain, sharded)).toEqual(["JOB_SCOPE_CHANGED:shop.nightly", "SUBSCRIPTION_NO_RENAME:shop.nightly"]);
    expect(diffBuilt(sharded, plain).changes.find((c) => c.rule === "SUBSCRIPTION_NO_RENAME")?.message).toBe(
      "Job nightly is delivered by subscription Reminders.nightly (was Reminders.nightly#<partition>): it starts at the beginning, so past ticks are handled again.",
    );
  });
});

describe("a type that no command or event carries", () => {
  // Address is held by state only: the wire rules (what senders and stored events hold) do not apply.
  const inState = (edits: ReadonlyArray<readonly [string, string]> = []) =>
    edited("AGGREGATE_NO_RENAME", [["    items: Item[]\n", "    items: Item[]\n    address: Address?\n"], ...edits]);

  it("its changes are state changes", () => {
    expect(keys(inState(), inState([["type Address { street: string }", "type Address { street: int, city: string }"]]))).toEqual([
      "STATE_CHANGED:shop.Address.city",
      "STATE_CHANGED:shop.Address.street",
    ]);
  });

  it("its removal is a state change; the removal of a type a command or event carried breaks", () => {
    const without = [["type Address { street: string }", ""]] as const; // and the state field that held it
    expect(keys(inState(), edited("AGGREGATE_NO_RENAME", [...without]))).toEqual(["STATE_CHANGED:shop.Address", "STATE_CHANGED:shop.Cart.state.address"]);
    const carried = inState([["command CloseCart", "command CloseCart { to: Address? }"]]);
    expect(keys(carried, edited("AGGREGATE_NO_RENAME", [...without]))).toContain("TYPE_NO_DELETE:shop.Address");
  });

  it("once a command or event carries it, they are wire changes", () => {
    const carried = (edits: ReadonlyArray<readonly [string, string]> = []) => inState([["command CloseCart", "command CloseCart { to: Address? }"], ...edits]);
    expect(keys(carried(), carried([["type Address { street: string }", "type Address { street: string, city: string }"]]))).toEqual(["FIELD_NO_ADD_REQUIRED:shop.Address.city"]);
  });
});
