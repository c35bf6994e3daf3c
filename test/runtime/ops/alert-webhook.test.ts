// The alert webhook against a receiver on 127.0.0.1 (real sockets; the host on a virtual clock): a
// signed body for each failed run and each park, retried with backoff when the receiver fails, and
// deliveries never held up by a receiver that hangs.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { aggregateRef, commandMessage, ScheduleRule, SystemCommands, type WowConfig } from "../../../runtime/index.js";
import { webhookSignature } from "../../../runtime/ops/webhook.js";
import { scheduleSpec, type ScheduleSpec } from "../../../runtime/testing/index.js";
import { stores } from "../fixtures/stores.js";
import { order, probe, receiveJob, S, shopSaga, stock } from "../sagas/saga-domain.js";

const SECRET = "webhook-secret-0123456789";
const START = "2026-10-20T00:00:00Z";

interface Received {
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** A receiver that answers each POST with the next status of `statuses` (then 200), or never when the status is 0. */
async function receiver(statuses: number[] = []): Promise<{ url: string; received: Received[]; server: Server; next(count: number): Promise<void> }> {
  const received: Received[] = [];
  const hung: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      const status = statuses.shift() ?? 200;
      if (status === 0) return void hung.push(res);
      res.writeHead(status).end();
    });
  });
  server.on("close", () => hung.forEach((res) => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  servers.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/alerts`,
    received,
    server,
    // Real time: the POST is real I/O, outside the virtual clock.
    async next(count) {
      const deadline = Date.now() + 5_000;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`the receiver got ${received.length} of ${count} alerts`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

const servers: Server[] = [];
const specs: ScheduleSpec[] = [];
afterEach(async () => {
  for (const s of specs.splice(0)) await s.stop();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

function config(url: string, webhook: Record<string, unknown> = {}): WowConfig {
  return {
    wow: {
      schedules: { receive: { expression: "0 * * * * *", zone: "UTC", misfire: "COALESCE", enabled: true } },
      timers: { "poll-interval": "1s", "max-attempts": 2 },
      alerts: { webhook: { url, secret: SECRET, timeout: "1s", ...webhook } },
    },
  } as WowConfig;
}

function failingSpec(store: (typeof stores)[number], wow: WowConfig) {
  const broken = { delivered: async () => Promise.reject(new Error("the supplier API is down")) };
  const s = scheduleSpec({ aggregates: [order, stock], sagas: [shopSaga(probe(), [receiveJob()])], services: { "shop.Suppliers": broken }, start: START, store: store.open(), config: wow, timers: { backoff: { initial: "1s" } } });
  specs.push(s);
  return s;
}

describe.each(stores)("alert webhook ($name)", (store) => {
  it("posts a signed JSON body for each failed run and the park that ends them", async () => {
    const r = await receiver();
    const s = failingSpec(store, config(r.url));
    await s.advanceTime("1m2s"); // the tick at +60 s fails twice: retrying, then parked
    await r.next(3);
    const alerts = r.received.map((x) => JSON.parse(x.body));
    expect(alerts.map((a) => [a.type, a.run?.outcome ?? a.parked?.kind])).toEqual([["job.failed", "retrying"], ["job.failed", "parked"], ["event.parked", "event"]]);
    expect(alerts[0]).toMatchObject({ host: "spec", at: "2026-10-20T00:01:00.000Z", run: { job: "receive", slot: 1, error: "Error: the supplier API is down" } });
    for (const x of r.received) {
      const signature = String(x.headers["wow-signature"]);
      const t = Number(/^t=(\d+),/.exec(signature)![1]);
      expect(signature).toBe(webhookSignature(SECRET, t, x.body));
      expect(x.headers["content-type"]).toBe("application/json");
      expect(webhookSignature("another-secret-of-16+", t, x.body)).not.toBe(signature);
    }
  });

  it("retries a receiver that fails, with backoff, and sends only the alert types asked for", async () => {
    const r = await receiver([503, 500]);
    const s = failingSpec(store, config(r.url, { events: ["event.parked"] }));
    await s.advanceTime("1m1s"); // parked at +61 s
    await r.next(1);
    // The receiver's answer is real I/O: the webhook waits out its backoff once it has read it.
    const retryAt = async () => {
      const deadline = Date.now() + 5_000;
      while (s.app.ops.webhook!.pending().retryAt === undefined) {
        if (Date.now() > deadline) throw new Error("the webhook never waited to retry");
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return s.app.ops.webhook!.pending().retryAt! - s.clock.now();
    };
    expect(r.received.map((x) => x.headers["wow-alert-attempt"])).toEqual(["1"]);
    expect(await retryAt()).toBe(1_000); // backoff after the first failure: 1 s
    await s.advanceTime("1s");
    await r.next(2);
    expect(await retryAt()).toBe(2_000); // then 2 s
    await s.advanceTime("2s");
    await r.next(3);
    const ids = new Set(r.received.map((x) => x.headers["wow-alert-id"]));
    expect(ids.size).toBe(1);
    expect(r.received.map((x) => [JSON.parse(x.body).type, x.headers["wow-alert-attempt"]])).toEqual([["event.parked", "1"], ["event.parked", "2"], ["event.parked", "3"]]);
  });

  it("never holds a delivery up: with the receiver hanging, scheduled commands are delivered on time", async () => {
    const r = await receiver([0, 0, 0, 0]);
    const s = failingSpec(store, config(r.url));
    const mug = aggregateRef("shop", "Stock", "mug");
    await s.send(commandMessage(S.Receive, { quantity: 1 }, mug));
    await s.send(commandMessage(SystemCommands.ScheduleCommand, { key: "later", rule: ScheduleRule.after("1m30s"), command: { type: S.Receive, body: { quantity: 1 } } }, mug));
    await s.advanceTime("1m2s"); // the job fails: alerts go to a receiver that never answers
    await r.next(1);
    const sent = await s.advanceTime("30s");
    expect(sent.map((x) => [x.command.type, x.at - x.due])).toEqual([[S.Receive, 0]]);
  });
});
