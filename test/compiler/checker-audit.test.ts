// One mistake, one error: the checker's findings where a declaration with an error elsewhere, or a
// duplicate name, made it report more (or other) errors than the mistake itself.
import { describe, expect, it } from "vitest";
import { IncrementalProgram } from "../../compiler/program/incremental.js";
import { compile, dedent, describe as describeDiagnostic, diagnose, sourceFiles } from "./helpers.js";

/** Lines 1–7: a context with aggregate Order (command PlaceOrder, event OrderPlaced), then `more`. */
const shop = (more: string): string => dedent(`
  context shop
  aggregate Order {
    command PlaceOrder { item: string }
    event OrderPlaced { item: string }
    @OnCommand(produces = [OrderPlaced])
    on PlaceOrder
  }
`) + dedent(more);

describe("a saga's rejection handler (WOW3020)", () => {
  it("counts the commands of an event handler whose event is misspelt", () => {
    const sources = shop(`
      saga Mails {
        @OnEvent(commands = [PlaceOrder])
        on OrderPlacd
        @OnRejected
        on PlaceOrder
      }
    `);
    expect(diagnose(sources)).toEqual(["WOW2003 10:6"]);
  });

  it("counts the commands of a job that has an error elsewhere", () => {
    const saga = (commands: string) =>
      shop(`
        saga Reorders {
          @OnSchedule(name = "reorder", cron = "0 0 * * * *", zone = "Mars/Olympus", commands = [${commands}])
          job reorder
          @OnRejected
          on PlaceOrder
        }
      `);
    expect(diagnose(saga("PlaceOrder"))).toEqual(["WOW4006 9:62"]);
    // Still a warning when no member lists the command.
    expect(diagnose(saga(""))).toEqual(["WOW4006 9:62", "WOW3020 12:6"]);
  });
});

describe("an aggregate whose name is taken (WOW2007)", () => {
  it("is checked as itself: its handler of another aggregate's command is its error, not the other's", () => {
    const sources = `
      context shop
      type Order { note: string }
      aggregate Order {
        command PlaceOrder {}
        event OrderPlaced {}
        @OnCommand(produces = [OrderPlaced, ItemAdded])
        on PlaceOrder
        @OnCommand(produces = [OrderPlaced])
        on AddItem
      }
      aggregate Cart {
        command AddItem {}
        event ItemAdded {}
        @OnCommand(produces = [ItemAdded])
        on AddItem
      }
    `;
    // WOW3009 and WOW3005 at Order's handlers; none at Cart's (it had a WOW3006).
    expect(diagnose(sources)).toEqual(["WOW2007 3:11", "WOW3009 6:39", "WOW3005 9:6"]);
  });

  it("gets only the duplicate-name errors when declared twice with the same members", () => {
    const order = dedent(`
      aggregate Order {
        command PlaceOrder {}
        event OrderPlaced {}
        @OnCommand(produces = [OrderPlaced])
        on PlaceOrder
      }
    `);
    const sources = { "a.wow": `context shop\n${order}`, "b.wow": `context shop\n${order}` };
    // b.wow's handler had a WOW3006, and its command a WOW3024 (the route of a.wow's).
    expect(diagnose(sources)).toEqual(["b.wow WOW2007 2:11", "b.wow WOW2007 3:11", "b.wow WOW2007 4:9"]);
  });
});

describe("a job's zone (WOW4006)", () => {
  const job = (zone: string) =>
    shop(`
      saga Reorders {
        @OnSchedule(name = "reorder", cron = "0 0 12 * * *", zone = "${zone}", commands = [PlaceOrder])
        job reorder
      }
    `);

  it.each([
    ["asia/tokyo", "Asia/Tokyo"],
    ["utc", "UTC"],
    ["us/pacific", "US/Pacific"],
    ["etc/utc", "Etc/UTC"],
    ["asia/kolkata", "Asia/Kolkata"],
    ["ASIA/CALCUTTA", "Asia/Calcutta"],
  ])("refuses %j, which Java's ZoneId refuses, with its spelling %j, which it takes", (zone, spelling) => {
    const { diagnostics, manifest } = compile(job(zone));
    expect(diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([`WOW4006 Unknown time zone '${zone}'.`]);
    expect(diagnostics[0]!.hint).toMatch(new RegExp(`^Did you mean '${spelling}'\\? Zone names are case-sensitive`));
    expect(manifest).toBeUndefined();
    expect(diagnose(job(spelling))).toEqual([]);
  });
});

describe("subscriptions of two contexts (WOW3027)", () => {
  /** A context with aggregate Pinger (Ping, Pinged) and `saga` (from line 8). */
  const context = (name: string, saga: string) =>
    dedent(`
      context ${name}
      aggregate Pinger {
        command Ping {}
        event Pinged {}
        @OnCommand(produces = [Pinged])
        on Ping
      }
    `) + dedent(saga);
  const relay = `
    saga Relay {
      @OnEvent(commands = [Ping])
      on Pinged
      @OnSchedule(name = "tick", cron = "0 0 * * * *", commands = [Ping])
      job tick
    }
  `;

  it("refuses a saga's event handler or job that subscribes under the name of another context's, and only that", () => {
    const { diagnostics } = compile({ "a.wow": context("shop", relay), "b.wow": context("stock", relay) });
    expect(diagnostics.map((d) => `${d.loc!.file.path} ${d.code} ${d.message}`)).toEqual([
      "b.wow WOW3027 The subscription 'Relay.onPinged' of the handler of event 'Pinged' in context 'stock' is already the subscription of a saga of context 'shop' (at a.wow:10:6).",
      "b.wow WOW3027 The subscription 'Relay.tick' of job 'tick' in context 'stock' is already the subscription of a saga of context 'shop' (at a.wow:12:7).",
    ]);
    expect(diagnostics[0]!.hint).toContain("rename one of the two sagas 'Relay'");
    // Not when the subscriptions differ, nor in one context (where the saga's name is WOW2007).
    const other = `
      saga Relay {
        @OnRejected
        on Ping
        @OnSchedule(name = "tick", cron = "0 0 * * * *", commands = [Ping])
        job tock
      }
    `;
    expect(diagnose({ "a.wow": context("shop", relay), "b.wow": context("stock", other) })).toEqual([]);
    expect(diagnose({ "a.wow": context("shop", relay), "b.wow": `context shop\n${dedent(relay)}` })).toEqual([
      "b.wow WOW2007 2:6",
      "b.wow WOW4004 5:22",
    ]);
  });

  it("is seen when only one context changes (the watcher re-checks that one alone)", () => {
    const program = new IncrementalProgram();
    const codes = (saga: string) => {
      const sources = sourceFiles({ "a.wow": context("shop", relay), "b.wow": context("stock", saga) });
      return program.compile(sources, { manifest: false }).diagnostics.map((d) => describeDiagnostic(d, true));
    };
    expect(codes(relay.replace("Relay", "Forward"))).toEqual([]);
    expect(codes(relay)).toEqual(["b.wow WOW3027 10:6", "b.wow WOW3027 12:7"]);
    expect(program.lastWork.checked).toBe(1);
  });

  it("compares the names the manifest gives: a job named like an event handler's function meets it", () => {
    const job = `
      saga Relay {
        @OnSchedule(name = "tick", cron = "0 0 * * * *", commands = [Ping])
        job onPinged
      }
    `;
    expect(diagnose({ "a.wow": context("shop", relay), "b.wow": context("stock", job) })).toEqual(["b.wow WOW3027 10:7"]);
  });
});
