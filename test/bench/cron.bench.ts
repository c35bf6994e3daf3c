// `npm run bench:cron`: next() calls per second of wowc's cron engine against cron-parser and
// croner, on the same rules (or, where a peer cannot express one, the nearest rule it can: the table
// names it), the same start instants and the same number of calls, in one run.
// Prints a table, then (last line) one JSON object: rule → { wowc, cron_parser, croner, ratio_to_best_peer }.
import { CronExpressionParser } from "cron-parser";
import { Cron } from "croner";
import { CronExpression } from "../../runtime/cron/index.js";

interface Rule {
  readonly key: string;
  readonly label: string;
  readonly zone: string;
  readonly wowc: string;
  readonly cronParser: string;
  readonly croner: string;
  /** Spring's answers: next fire times after `from`, checked before measuring. */
  readonly spring: { readonly from: string; readonly next: readonly string[] };
  /** When a peer cannot express the rule: what it runs instead, and why that is nearest. */
  readonly substitute?: string | undefined;
}

const RULES: readonly Rule[] = [
  {
    key: "daily_berlin",
    label: "daily 06:00 Europe/Berlin",
    zone: "Europe/Berlin",
    wowc: "0 0 6 * * *",
    cronParser: "0 0 6 * * *",
    croner: "0 0 6 * * *",
    // Across the spring-forward night of 2025-03-30: 06:00 CET then 06:00 CEST.
    spring: { from: "2025-03-28T12:00:00Z", next: ["2025-03-29T05:00:00.000Z", "2025-03-30T04:00:00.000Z", "2025-03-31T04:00:00.000Z"] },
  },
  {
    key: "seconds_utc",
    label: "every 15 s, UTC",
    zone: "UTC",
    wowc: "*/15 * * * * *",
    cronParser: "*/15 * * * * *",
    croner: "*/15 * * * * *",
    spring: { from: "2025-01-01T00:00:07Z", next: ["2025-01-01T00:00:15.000Z", "2025-01-01T00:00:30.000Z", "2025-01-01T00:00:45.000Z"] },
  },
  {
    key: "last_weekday",
    label: "last Friday 12:00 UTC",
    zone: "UTC",
    wowc: "0 0 12 ? * 5L",
    cronParser: "0 0 12 * * 5L",
    croner: "0 0 12 * * 5#L",
    spring: { from: "2025-01-01T00:00:00Z", next: ["2025-01-31T12:00:00.000Z", "2025-02-28T12:00:00.000Z", "2025-03-28T12:00:00.000Z"] },
  },
  ...monthDayRules(),
];

/**
 * Midnight on a day-of-month rule (`L`, `LW`, `L-3`, `15W`) in three zones. Spring's days are those
 * of its UTC vectors (test/runtime/cron/fixtures/spring-vectors.json, same `from`); local midnight is
 * outside every DST gap in these zones, so in a zone Spring fires at local midnight of those days
 * (UTC instants below: EST/EDT and CET/CEST, across the March changes for L, L-3 and 15W).
 */
function monthDayRules(): Rule[] {
  const kinds = [
    {
      rule: "L", cronParser: "L", croner: "L",
      from: "2024-02-01T00:00:00Z",
      next: {
        UTC: ["2024-02-29T00:00:00.000Z", "2024-03-31T00:00:00.000Z", "2024-04-30T00:00:00.000Z"],
        "America/New_York": ["2024-02-29T05:00:00.000Z", "2024-03-31T04:00:00.000Z", "2024-04-30T04:00:00.000Z"],
        "Europe/Berlin": ["2024-02-28T23:00:00.000Z", "2024-03-30T23:00:00.000Z", "2024-04-29T22:00:00.000Z"],
      },
    },
    {
      rule: "LW", cronParser: "L", croner: "LW",
      substitute: "cron-parser lacks LW: runs L (one computed day a month)",
      from: "2025-05-01T00:00:00Z",
      next: {
        UTC: ["2025-05-30T00:00:00.000Z", "2025-06-30T00:00:00.000Z", "2025-07-31T00:00:00.000Z"],
        "America/New_York": ["2025-05-30T04:00:00.000Z", "2025-06-30T04:00:00.000Z", "2025-07-31T04:00:00.000Z"],
        "Europe/Berlin": ["2025-05-29T22:00:00.000Z", "2025-06-29T22:00:00.000Z", "2025-07-30T22:00:00.000Z"],
      },
    },
    {
      rule: "L-3", cronParser: "L", croner: "L",
      substitute: "both lack L-n: run L (one computed day a month)",
      from: "2024-02-01T00:00:00Z",
      next: {
        UTC: ["2024-02-26T00:00:00.000Z", "2024-03-28T00:00:00.000Z", "2024-04-27T00:00:00.000Z"],
        "America/New_York": ["2024-02-26T05:00:00.000Z", "2024-03-28T04:00:00.000Z", "2024-04-27T04:00:00.000Z"],
        "Europe/Berlin": ["2024-02-25T23:00:00.000Z", "2024-03-27T23:00:00.000Z", "2024-04-26T22:00:00.000Z"],
      },
    },
    {
      rule: "15W", cronParser: "15", croner: "15W",
      substitute: "cron-parser lacks nW: runs 15 (the day W moves from)",
      from: "2025-02-01T00:00:00Z",
      next: {
        UTC: ["2025-02-14T00:00:00.000Z", "2025-03-14T00:00:00.000Z", "2025-04-15T00:00:00.000Z"],
        "America/New_York": ["2025-02-14T05:00:00.000Z", "2025-03-14T04:00:00.000Z", "2025-04-15T04:00:00.000Z"],
        "Europe/Berlin": ["2025-02-13T23:00:00.000Z", "2025-03-13T23:00:00.000Z", "2025-04-14T22:00:00.000Z"],
      },
    },
  ];
  const zones = [
    { zone: "America/New_York", key: "new_york" },
    { zone: "Europe/Berlin", key: "berlin" },
    { zone: "UTC", key: "utc" },
  ] as const;
  return kinds.flatMap((kind) =>
    zones.map(({ zone, key }) => ({
      key: `${kind.rule}_${key}`,
      label: `${kind.rule} 00:00 ${zone}`,
      zone,
      wowc: `0 0 0 ${kind.rule} * *`,
      cronParser: `0 0 0 ${kind.cronParser} * *`,
      croner: `0 0 0 ${kind.croner} * *`,
      spring: { from: kind.from, next: kind.next[zone] },
      substitute: kind.substitute,
    })),
  );
}

const STARTS = 1000;
// The peers manage only thousands of calls per second, so the counts stay small to keep the run
// short; wowc's timing is then a few milliseconds per trial, hence best-of-trials.
const CALLS = 4_000; // per trial, the same for every library
const TRIALS = 3;
const WARMUP_CALLS = 2_000;

/** Start instants spread over two years (odd step, so every time of day and both DST sides occur). */
const starts: Date[] = Array.from({ length: STARTS }, (_, i) => new Date(Date.UTC(2025, 0, 1) + i * 62_987_123));
const firstStart = starts[0]!;

type Next = (after: Date) => number;

function implementations(rule: Rule): Record<"wowc" | "cron_parser" | "croner", Next> {
  const wowc = CronExpression.parse(rule.wowc);
  const parser = CronExpressionParser.parse(rule.cronParser, { tz: rule.zone, currentDate: firstStart });
  const croner = new Cron(rule.croner, { timezone: rule.zone, paused: true, domAndDow: true });
  return {
    wowc: (after) => wowc.nextAfterMs(after.getTime(), rule.zone) ?? 0,
    cron_parser: (after) => {
      parser.reset(after);
      return parser.next().getTime();
    },
    croner: (after) => croner.nextRun(after)?.getTime() ?? 0,
  };
}

function run(next: Next, calls: number): number {
  let sink = 0;
  for (let i = 0; i < calls; i++) sink += next(starts[i % STARTS]!) % 7;
  return sink;
}

function checkSpring(rule: Rule): void {
  const wowc = CronExpression.parse(rule.wowc);
  let after = new Date(rule.spring.from);
  for (const expected of rule.spring.next) {
    const got = wowc.next(after, rule.zone);
    if (got?.toISOString() !== expected) {
      throw new Error(`wowc disagrees with Spring on ${rule.wowc} (${rule.zone}) after ${after.toISOString()}: got ${got?.toISOString()}, Spring ${expected}`);
    }
    after = got;
  }
}

const results: Record<string, { wowc: number; cron_parser: number; croner: number; ratio_to_best_peer: number }> = {};
let sink = 0;
for (const rule of RULES) {
  checkSpring(rule);
  const impls = implementations(rule);
  const names = Object.keys(impls) as (keyof typeof impls)[];
  for (const name of names) sink += run(impls[name], WARMUP_CALLS);
  const best: Record<keyof typeof impls, number> = { wowc: 0, cron_parser: 0, croner: 0 };
  for (let trial = 0; trial < TRIALS; trial++) {
    for (const name of names) {
      const started = process.hrtime.bigint();
      sink += run(impls[name], CALLS);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      best[name] = Math.max(best[name], CALLS / seconds);
    }
  }
  const peer = Math.max(best.cron_parser, best.croner);
  results[rule.key] = {
    wowc: Math.round(best.wowc),
    cron_parser: Math.round(best.cron_parser),
    croner: Math.round(best.croner),
    ratio_to_best_peer: Math.round((best.wowc / peer) * 100) / 100,
  };
}

const fmt = (n: number): string => n.toLocaleString("en-US").padStart(12);
console.log(`cron next() calls/s — best of ${TRIALS} trials × ${CALLS.toLocaleString("en-US")} calls, ${STARTS} start instants, Node ${process.version}`);
console.log(`${"rule".padEnd(30)}${"wowc".padStart(12)}${"cron-parser".padStart(12)}${"croner".padStart(12)}${"ratio".padStart(8)}  peers`);
for (const rule of RULES) {
  const r = results[rule.key]!;
  const peers = rule.substitute ?? "same rule";
  console.log(`${rule.label.padEnd(30)}${fmt(r.wowc)}${fmt(r.cron_parser)}${fmt(r.croner)}${`${r.ratio_to_best_peer}×`.padStart(8)}  ${peers}`);
}
console.log("ratio = wowc / the faster peer");
console.log(`wowc answers checked against Spring's for each rule (checksum ${sink % 1000})`);
console.log(JSON.stringify(results));
