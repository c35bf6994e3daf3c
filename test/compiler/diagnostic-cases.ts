// One inline-source case per diagnostic code (the test of each code, and the examples of
// grammar/DIAGNOSTICS.md). `expected` lists every diagnostic of the sources as `CODE line:col`.
import type { DiagnosticCode } from "../../compiler/diagnostics/messages.js";
import { dedent, type Sources } from "./helpers.js";

export interface DiagnosticCase {
  readonly code: DiagnosticCode;
  readonly title: string;
  readonly sources: Sources;
  readonly expected: readonly string[];
}

/** A clean context (lines 1–7) followed by `more`: most cases add one mistake to it. */
function shop(more = "", edit: (text: string) => string = (text) => text): string {
  const base = dedent(`
    context shop
    aggregate Order {
      command PlaceOrder { item: string }
      event OrderPlaced { item: string }
      @OnCommand(produces = [OrderPlaced])
      on PlaceOrder
    }
  `);
  return edit(base) + dedent(more);
}

/** A second context, for references across contexts: aggregate Invoice with command Issue and event Issued. */
export const billing = `
        context billing
        aggregate Invoice {
          command Issue {}
          event Issued {}
          @OnCommand(produces = [Issued])
          on Issue
        }
      `;

export const cases: readonly DiagnosticCase[] = [
  // ── WOW1xxx: syntax (the parser's codes; more cases live in test/grammar) ──
  {
    code: "WOW1001",
    title: "unexpected character",
    sources: `
      context shop
      type Money { amount: decimal # }
    `,
    expected: ["WOW1001 2:30"],
  },
  {
    code: "WOW1002",
    title: "unexpected token",
    sources: `
      context shop
      type Money { amount decimal }
    `,
    expected: ["WOW1002 2:21"],
  },
  {
    code: "WOW1003",
    title: "unterminated string",
    sources: `
      context shop
      saga S {
        @OnSchedule(name = "tick, cron = "0 0 * * * *")
        job tick
      }
    `,
    expected: ["WOW3015 3:3", "WOW4005 3:22", "WOW1002 3:37", "WOW1001 3:41", "WOW1001 3:43", "WOW1001 3:45", "WOW1001 3:47", "WOW1003 3:48"],
  },
  {
    code: "WOW1013",
    title: "lists nested deeper than the parser follows (65 levels; a few hundred once crashed it)",
    sources: `
      context shop
      @Blocking(why = ${"[".repeat(65)}"deep"${"]".repeat(65)})
      type Money { amount: decimal }
    `,
    // WOW3012: @Blocking belongs on a handler; the parse went on past the skipped list.
    expected: ["WOW3012 2:2", "WOW1013 2:81"],
  },
  {
    code: "WOW1004",
    title: "unterminated comment",
    sources: `
      context shop
      /* a comment that never ends
      type Money { amount: decimal }
    `,
    expected: ["WOW1004 2:1"],
  },
  {
    code: "WOW1005",
    title: "no context clause",
    sources: `
      type Money { amount: decimal }
    `,
    expected: ["WOW1005 1:1"],
  },
  {
    code: "WOW1006",
    title: "unclosed block",
    sources: `
      context shop
      type Money { amount: decimal
    `,
    expected: ["WOW1006 2:29"],
  },
  {
    code: "WOW1007",
    title: "a name was expected",
    sources: `
      context shop
      type { amount: decimal }
    `,
    expected: ["WOW1007 2:6"],
  },
  {
    code: "WOW1008",
    title: "unknown escape in a string",
    sources: `
      context shop
      saga S {
        @OnSchedule(name = "t\\q", cron = "0 0 * * * *")
        job tick
      }
    `,
    expected: ["WOW4005 3:22", "WOW1008 3:24"],
  },
  {
    code: "WOW1009",
    title: "second context clause",
    sources: `
      context shop
      context billing
    `,
    expected: ["WOW1009 2:1"],
  },
  {
    code: "WOW1010",
    title: "declaration in the wrong place",
    sources: `
      context shop
      command PlaceOrder {}
    `,
    expected: ["WOW1010 2:1"],
  },
  {
    code: "WOW1011",
    title: "missing separator",
    sources: `
      context shop
      enum Color { RED GREEN }
    `,
    expected: ["WOW1011 2:18"],
  },
  {
    code: "WOW1012",
    title: "annotation not followed by a declaration",
    sources: `
      context shop
      aggregate Order {
        @CreateAggregate
      }
    `,
    expected: ["WOW1012 4:1"],
  },

  // ── WOW2xxx: names and resolution ──
  {
    code: "WOW2001",
    title: "unknown type, with the nearest name",
    sources: `
      context shop
      type Item { sku: string }
      type Basket { items: Itme[], total: money }
    `,
    expected: ["WOW2001 3:22", "WOW2001 3:37"],
  },
  {
    code: "WOW2002",
    title: "unknown command",
    sources: `
      context shop
      aggregate Order {
        command PlaceOrder {}
        event OrderPlaced {}
        @OnCommand(produces = [OrderPlaced])
        on PlaceOrdr
      }
    `,
    expected: ["WOW3007 3:11", "WOW2002 6:6"],
  },
  {
    code: "WOW2003",
    title: "unknown event",
    sources: `
      context shop
      aggregate Order {
        command PlaceOrder {}
        event OrderPlaced {}
        @OnCommand(produces = [OrderPlace])
        on PlaceOrder
      }
    `,
    expected: ["WOW3008 4:9", "WOW2003 5:26"],
  },
  {
    code: "WOW2004",
    title: "unknown service",
    sources: `
      context shop
      service Clock
      aggregate Order {
        command PlaceOrder {}
        event OrderPlaced {}
        @OnCommand(produces = [OrderPlaced])
        on PlaceOrder(clock: Clok)
      }
    `,
    expected: ["WOW2004 7:24"],
  },
  {
    code: "WOW2005",
    title: "unknown context",
    sources: {
      "billing.wow": billing,
      "shop.wow": shop(`
        saga Billing {
          @OnEvent(commands = [biling.Issue])
          on OrderPlaced
        }
      `),
    },
    expected: ["shop.wow WOW2005 9:24"],
  },
  {
    code: "WOW2006",
    title: "a name of the wrong kind",
    sources: shop(`
      saga Mailer {
        @OnEvent(commands = [OrderPlaced])
        on PlaceOrder
      }
    `),
    expected: ["WOW2006 9:24", "WOW2006 10:6"],
  },
  {
    code: "WOW2007",
    title: "a name declared twice in a context (across files)",
    sources: {
      "a.wow": `
        context shop
        type Money { amount: decimal }
      `,
      "b.wow": `
        context shop
        enum Money { EUR, USD }
      `,
    },
    expected: ["b.wow WOW2007 2:6"],
  },
  {
    code: "WOW2008",
    title: "field declared twice",
    sources: `
      context shop
      type Money { amount: decimal, amount: long }
    `,
    expected: ["WOW2008 2:31"],
  },
  {
    code: "WOW2009",
    title: "enum value listed twice",
    sources: `
      context shop
      enum Currency { EUR, USD, EUR }
    `,
    expected: ["WOW2009 2:27"],
  },
  {
    code: "WOW2010",
    title: "parameter declared twice",
    sources: `
      context shop
      service Clock
      aggregate Order {
        command PlaceOrder {}
        event OrderPlaced {}
        @OnCommand(produces = [OrderPlaced])
        on PlaceOrder(clock: Clock, clock: Clock)
      }
    `,
    expected: ["WOW2010 7:31"],
  },
  {
    code: "WOW2011",
    title: "two saga functions with one name",
    sources: shop(`
      saga Mailer {
        on OrderPlaced
        @OnSchedule(name = "mail", cron = "0 0 * * * *")
        job onOrderPlaced
      }
    `),
    expected: ["WOW2011 11:7"],
  },
  {
    code: "WOW2012",
    title: "a declaration named like a name the SDK derives from another",
    sources: shop(`
      enum OrderState { OPEN, PAID }
      type PlaceOrderCommand { id: string }
    `),
    expected: ["WOW2012 8:6", "WOW2012 9:6"],
  },

  // ── WOW3xxx: declarations, handlers and annotations ──
  {
    code: "WOW3002",
    title: "invalid context name",
    sources: `
      context Shop_Front
      type Money { amount: decimal }
    `,
    expected: ["WOW3002 1:9"],
  },
  {
    code: "WOW3003",
    title: "reserved context name",
    sources: `
      context wow
      type Money { amount: decimal }
    `,
    expected: ["WOW3003 1:9"],
  },
  {
    code: "WOW3004",
    title: "a name the generated TypeScript cannot declare",
    sources: `
      context shop
      type Order-Line { sku: string }
      enum class { A }
      type readonly { sku: string }
      enum eval { B }
    `,
    expected: ["WOW3004 2:6", "WOW3004 3:6", "WOW3004 4:6", "WOW3004 5:6"],
  },
  {
    code: "WOW3005",
    title: "an aggregate handles another aggregate's command",
    sources: `
      context shop
      aggregate Order {
        command PlaceOrder {}
        event OrderPlaced {}
        @OnCommand(produces = [OrderPlaced])
        on PlaceOrder
      }
      aggregate Stock {
        on PlaceOrder
      }
    `,
    expected: ["WOW3005 9:6"],
  },
  {
    code: "WOW3006",
    title: "a command handled twice",
    sources: shop("", (t) => t.replace("on PlaceOrder\n", "on PlaceOrder\n  on PlaceOrder\n")),
    expected: ["WOW3006 7:6"],
  },
  {
    code: "WOW3007",
    title: "a command without a handler",
    sources: `
      context shop
      aggregate Order {
        command PlaceOrder {}
        command CancelOrder {}
        event OrderPlaced {}
        @OnCommand(produces = [OrderPlaced])
        on PlaceOrder
      }
    `,
    expected: ["WOW3007 4:11"],
  },
  {
    code: "WOW3008",
    title: "an event no handler produces (warning)",
    sources: `
      context shop
      aggregate Order {
        command PlaceOrder {}
        event OrderPlaced {}
        event OrderShipped {}
        @OnCommand(produces = [OrderPlaced])
        on PlaceOrder
      }
    `,
    expected: ["WOW3008 5:9"],
  },
  {
    code: "WOW3009",
    title: "produces an event of another aggregate",
    sources: `
      context shop
      aggregate Order {
        command PlaceOrder {}
        event OrderPlaced {}
        @OnCommand(produces = [OrderPlaced, StockReserved])
        on PlaceOrder
      }
      aggregate Stock {
        command Reserve {}
        event StockReserved {}
        @OnCommand(produces = [StockReserved])
        on Reserve
      }
    `,
    expected: ["WOW3009 5:39"],
  },
  {
    code: "WOW3010",
    title: "unknown annotation",
    sources: shop("", (t) => t.replace("@OnCommand", "@OnComand")),
    expected: ["WOW3008 4:9", "WOW3010 5:4"],
  },
  {
    code: "WOW3011",
    title: "annotation repeated",
    sources: shop("", (t) => t.replace("command PlaceOrder", "@CreateAggregate @CreateAggregate\n  command PlaceOrder")),
    expected: ["WOW3011 3:20"],
  },
  {
    code: "WOW3012",
    title: "annotation in the wrong place",
    sources: shop(`
      @Blocking
      type Money { amount: decimal }
    `),
    expected: ["WOW3012 8:2"],
  },
  {
    code: "WOW3013",
    title: "unknown annotation argument",
    sources: shop("", (t) => t.replace("@OnCommand(produces", "@OnCommand(produce")),
    expected: ["WOW3008 4:9", "WOW3013 5:14"],
  },
  {
    code: "WOW3014",
    title: "argument of the wrong kind",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = tick, cron = "0 0 * * * *", sharded = "yes")
        job tick
      }
    `),
    expected: ["WOW3014 9:22", "WOW3014 9:60"],
  },
  {
    code: "WOW3015",
    title: "required argument missing",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = "tick")
        job tick
      }
    `),
    expected: ["WOW3015 9:3"],
  },
  {
    code: "WOW3016",
    title: "argument given twice",
    sources: shop("", (t) => t.replace("@OnCommand(produces = [OrderPlaced])", "@OnCommand(produces = [OrderPlaced], produces = [])")),
    expected: ["WOW3016 5:40"],
  },
  {
    code: "WOW3017",
    title: "create and delete at once",
    sources: shop("", (t) => t.replace("command PlaceOrder", "@CreateAggregate @DeleteAggregate\n  command PlaceOrder")),
    expected: ["WOW3017 3:20"],
  },
  {
    code: "WOW3018",
    title: "both @OnEvent and @OnRejected",
    sources: shop(`
      saga Mailer {
        @OnEvent(commands = [PlaceOrder])
        on OrderPlaced
        @OnEvent @OnRejected
        on PlaceOrder
      }
    `),
    expected: ["WOW3018 11:12"],
  },
  {
    code: "WOW3019",
    title: "a saga handles an event twice",
    sources: shop(`
      saga Mailer {
        on OrderPlaced
        on shop.OrderPlaced
      }
    `),
    expected: ["WOW3019 10:6"],
  },
  {
    code: "WOW3020",
    title: "a rejection handler that never runs (warning)",
    sources: shop(`
      saga Mailer {
        @OnRejected
        on PlaceOrder
      }
    `),
    expected: ["WOW3020 10:6"],
  },
  {
    code: "WOW3021",
    title: "a list names something twice (warning)",
    sources: shop("", (t) => t.replace("produces = [OrderPlaced]", "produces = [OrderPlaced, OrderPlaced]")),
    expected: ["WOW3021 5:39"],
  },
  {
    code: "WOW3022",
    title: "two state blocks",
    sources: shop("", (t) => t.replace("aggregate Order {", "aggregate Order {\n  state { a: int }\n  state { b: int }")),
    expected: ["WOW3022 4:3"],
  },
  {
    code: "WOW3023",
    title: "two contexts that the SDK would name alike",
    sources: {
      "a.wow": `
        context order-2
        type Money { amount: decimal }
      `,
      "b.wow": `
        context order2
        type Money { amount: decimal }
      `,
    },
    expected: ["b.wow WOW3023 1:9"],
  },
  {
    code: "WOW3024",
    title: "commands with one HTTP route (in one aggregate, and in two)",
    sources: shop(`
      aggregate Cart {
        command PayNow {}
        command PAY_NOW {}
        event Paid {}
        @OnCommand(produces = [Paid])
        on PayNow
        @OnCommand(produces = [Paid])
        on PAY_NOW
      }
      aggregate cart {
        command pay_now {}
        event paid {}
        @OnCommand(produces = [paid])
        on pay_now
      }
    `),
    expected: ["WOW3024 10:11", "WOW3024 18:11"],
  },
  {
    code: "WOW3025",
    title: "a context that the SDK would name like one of its own exports",
    sources: {
      "a.wow": `
        context load-config
        type Money { amount: decimal }
      `,
    },
    expected: ["WOW3025 1:9"],
  },
  {
    code: "WOW3026",
    title: "a declaration named `then`: its context's module would be a thenable",
    sources: `
      context shop
      aggregate Order {
        command then {}
        event Placed {}
        @OnCommand(produces = [Placed])
        on then
      }
    `,
    expected: ["WOW3026 3:11"],
  },
  {
    code: "WOW3026",
    title: "a context named `then`: the SDK's root module would be a thenable",
    sources: `
      context then
      type T { a: int }
    `,
    expected: ["WOW3026 1:9"],
  },
  {
    code: "WOW3027",
    title: "sagas of one name in two contexts that handle events of one name: both subscribe as `Relay.onPinged`",
    sources: Object.fromEntries(
      ["shop", "stock"].map((context) => [
        `${context}.wow`,
        `
          context ${context}
          aggregate Pinger {
            command Ping {}
            event Pinged {}
            @OnCommand(produces = [Pinged])
            on Ping
          }
          saga Relay {
            @OnEvent
            on Pinged
          }
        `,
      ]),
    ),
    expected: ["stock.wow WOW3027 10:6"],
  },

  // ── WOW4xxx: jobs and cron ──
  {
    code: "WOW4001",
    title: "invalid cron expression (points at the field inside the string)",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = "tick", cron = "0 0 25 * * *", commands = [PlaceOrder])
        job tick
      }
    `),
    expected: ["WOW4001 9:42"],
  },
  {
    code: "WOW4002",
    title: "cron expression that never fires",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = "tick", cron = "0 0 0 30 2 *", commands = [PlaceOrder])
        job tick
      }
    `),
    expected: ["WOW4002 9:37"],
  },
  {
    code: "WOW4003",
    title: "job without @OnSchedule",
    sources: shop(`
      saga Ticker {
        job tick
      }
    `),
    expected: ["WOW4003 9:7"],
  },
  {
    code: "WOW4004",
    title: "job name used twice in a context",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = "tick", cron = "0 0 * * * *", commands = [PlaceOrder])
        job tick
      }
      saga Tocker {
        @OnSchedule(name = "tick", cron = "0 30 * * * *", commands = [PlaceOrder])
        job tock
      }
    `),
    expected: ["WOW4004 13:22"],
  },
  {
    code: "WOW4005",
    title: "invalid job names (a character outside the set, and `__proto__`)",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = "every hour", cron = "0 0 * * * *", commands = [PlaceOrder])
        job tick
        @OnSchedule(name = "__proto__", cron = "0 0 * * * *", commands = [PlaceOrder])
        job proto
      }
    `),
    expected: ["WOW4005 9:22", "WOW4005 11:22"],
  },
  {
    code: "WOW4006",
    title: "unknown time zone",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = "tick", cron = "0 0 * * * *", zone = "Europe/Pariss", commands = [PlaceOrder])
        job tick
      }
    `),
    expected: ["WOW4006 9:59"],
  },
  {
    code: "WOW4007",
    title: "sharded tenant job",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = "tick", cron = "0 0 * * * *", scope = TENANT, sharded = true, commands = [PlaceOrder])
        job tick
      }
    `),
    expected: ["WOW4007 9:78"],
  },
  {
    code: "WOW4008",
    title: "unknown enum value",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = "tick", cron = "0 0 * * * *", scope = SYSTEMS, misfire = CATCHUP, commands = [PlaceOrder])
        job tick
      }
    `),
    expected: ["WOW4008 9:60", "WOW4008 9:79"],
  },
  {
    code: "WOW4009",
    title: "two jobs whose environment variables meet",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = "nightly-sweep", cron = "0 0 0 * * *")
        job sweep
        @OnSchedule(name = "NightlySweep", cron = "0 0 1 * * *")
        job sweepAgain
      }
    `),
    expected: ["WOW4009 12:7"],
  },
  {
    code: "WOW4010",
    title: "a rule that matches only inside a DST gap of its zone (the last Sunday of March, 02:30, in Berlin)",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = "spring", cron = "0 30 2 31 3 SUN", zone = "Europe/Berlin", commands = [PlaceOrder])
        job spring
        @OnSchedule(name = "autumn", cron = "0 30 2 31 10 SUN", zone = "Europe/Berlin", commands = [PlaceOrder])
        job autumn
      }
    `),
    expected: ["WOW4010 9:39"],
  },
  {
    code: "WOW4011",
    title: "a rule with a match in a DST gap of its zone (02:30 every day in Berlin: not on the last Sunday of March) (warning)",
    sources: shop(`
      saga Ticker {
        @OnSchedule(name = "nightly", cron = "0 30 2 * * *", zone = "Europe/Berlin", commands = [PlaceOrder])
        job nightly
        @OnSchedule(name = "early", cron = "0 30 3 * * *", zone = "Europe/Berlin", commands = [PlaceOrder])
        job early
      }
    `),
    expected: ["WOW4011 9:40"],
  },
  {
    code: "WOW4012",
    title: "a timeout and a backoff that are not durations",
    sources: shop(`
      saga Ticker {
        @Retry(backoff = "ten seconds")
        @OnSchedule(name = "tick", cron = "0 0 * * * *", timeout = "5 min", commands = [PlaceOrder])
        job tick
      }
    `),
    expected: ["WOW4012 9:20", "WOW4012 10:62"],
  },
  {
    code: "WOW4013",
    title: "no attempt at all",
    sources: shop(`
      saga Ticker {
        @Retry(maxAttempts = 0)
        @OnSchedule(name = "tick", cron = "0 0 * * * *", commands = [PlaceOrder])
        job tick
      }
    `),
    expected: ["WOW4013 9:24"],
  },
  {
    code: "WOW4014",
    title: "a backoff cap below the first delay",
    sources: shop(`
      saga Ticker {
        @Retry(backoff = "5m", maxBackoff = "30s")
        @OnSchedule(name = "tick", cron = "0 0 * * * *", commands = [PlaceOrder])
        job tick
      }
    `),
    expected: ["WOW4014 9:39"],
  },
  {
    code: "WOW4015",
    title: "@Blocking on a command handler",
    sources: shop(``, (text) => text.replace("  @OnCommand(produces = [OrderPlaced])", "  @Blocking\n  @OnCommand(produces = [OrderPlaced])")),
    expected: ["WOW4015 5:4"],
  },
];
