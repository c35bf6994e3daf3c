// 200+ malformed or hostile requests over a real socket: every one answered with a 4xx and a JSON
// error code, never a 500, and the server still serves afterwards.
import { request } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { intBetween, mulberry32, pick } from "../support/random.js";
import { OPERATOR, serve, type Served } from "./http-fixture.js";

let s: Served;
beforeAll(async () => {
  s = await serve();
});
afterAll(async () => {
  await s.close();
});

interface Hostile {
  readonly method: string;
  readonly path: string;
  readonly body?: string | Buffer;
  readonly headers?: Record<string, string>;
}

/** Sends a raw request (the path exactly as given, no URL normalisation). */
function raw(h: Hostile): Promise<{ status: number; code: string | undefined; body: string }> {
  const url = new URL(s.base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: h.method,
        path: h.path,
        headers: { authorization: `Bearer ${OPERATOR}`, ...(h.body === undefined ? {} : { "content-length": String(Buffer.byteLength(h.body)), "content-type": "application/json" }), ...h.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, code: res.headers["wow-error-code"] as string | undefined, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => (error.code === "ECONNRESET" || error.code === "EPIPE" ? resolve({ status: 413, code: "PayloadTooLarge", body: "" }) : reject(error)));
    if (h.body !== undefined) req.end(h.body);
    else req.end();
  });
}

const create = "/shop/tenant/(0)/order/create_order";
const receive = "/shop/tenant/(0)/stock/mug/receive";

const FIXED: Hostile[] = [
  { method: "POST", path: create, body: "{" },
  { method: "POST", path: create, body: "[1,2]" },
  { method: "POST", path: create, body: "null" },
  { method: "POST", path: create, body: '"text"' },
  { method: "POST", path: create, body: "42" },
  { method: "POST", path: create, body: '{"product": null, "quantity": 1}' },
  { method: "POST", path: create, body: '{"product": "mug", "quantity": 1.5}' },
  { method: "POST", path: create, body: '{"product": "mug", "quantity": 1e400}' },
  { method: "POST", path: create, body: '{"__proto__": {"admin": true}, "product": "mug", "quantity": 1}' },
  { method: "POST", path: create, body: '{"product": ["mug"], "quantity": {}}' },
  { method: "PUT", path: receive, body: '{"quantity": "10"}' },
  { method: "PUT", path: receive, body: '{"quantity": true}' },
  { method: "PUT", path: receive, body: Buffer.from([0xff, 0xfe, 0x00, 0x7b]) },
  { method: "PUT", path: receive, body: "x".repeat(200 * 1024) },
  { method: "PUT", path: receive, body: `{"quantity": 1, "pad": "${"y".repeat(100 * 1024)}"}` },
  { method: "PUT", path: receive, body: "[".repeat(50_000) },
  { method: "PUT", path: receive, body: '{"quantity": 1}', headers: { "Command-Aggregate-Version": "-1" } },
  { method: "PUT", path: receive, body: '{"quantity": 1}', headers: { "Command-Aggregate-Version": "abc" } },
  { method: "PUT", path: receive, body: '{"quantity": 1}', headers: { "Command-Request-Id": "r".repeat(500) } },
  { method: "POST", path: create, body: '{"product": "mug", "quantity": 1}', headers: { "Command-Aggregate-Id": "../../etc/passwd" } },
  { method: "POST", path: create, body: '{"product": "mug", "quantity": 1}', headers: { "Command-Aggregate-Id": "" } },
  ...["constructor", "toString", "hasOwnProperty", "__proto__", "valueOf"].map((verb) => ({ method: "POST", path: `/shop/schedule/receive/wow.schedule.${verb}` })),
  { method: "GET", path: "/" },
  { method: "GET", path: "/wow" },
  { method: "GET", path: "/wow/jobs/extra" },
  { method: "DELETE", path: "/wow/jobs" },
  { method: "GET", path: "/../../etc/passwd" },
  { method: "GET", path: "/wow/%2e%2e/%2e%2e/etc/passwd" },
  { method: "GET", path: "/shop/tenant/(0)/order/..%2F..%2Fsecret/cancel_order" },
  { method: "PUT", path: "/shop/tenant/(0)/order/%2e%2e/cancel_order", body: "{}" },
  { method: "PUT", path: "/shop/tenant/..%2f/order/o/cancel_order", body: "{}" },
  { method: "PUT", path: "/shop/tenant/(0)/order/a%00b/cancel_order", body: "{}" },
  { method: "PUT", path: "/shop/tenant/(0)/order/%E0%A4%A/cancel_order", body: "{}" },
  { method: "PUT", path: "/shop//tenant/(0)/order/o/cancel_order", body: "{}" },
  { method: "PUT", path: "/shop/tenant/(0)/order/o\\..\\x/cancel_order", body: "{}" },
  { method: "PUT", path: `/shop/tenant/(0)/order/${"a".repeat(3000)}/cancel_order`, body: "{}" },
  { method: "PUT", path: "/shop/tenant/(0)/order/o/create_order", body: "{}" },
  { method: "GET", path: create },
  { method: "PATCH", path: receive, body: "{}" },
  { method: "POST", path: "/shop/schedule/receive/wow.schedule.enable", body: '{"expression": 5}' },
  { method: "POST", path: "/shop/schedule/receive/wow.schedule.enable", body: '{"zone": "Mars/Olympus"}' },
  { method: "POST", path: "/shop/schedule/receive/wow.schedule.enable", body: '{"misfire": "SOMETIMES"}' },
  { method: "POST", path: "/shop/schedule/receive/wow.schedule.reschedule", body: '{"expression": "61 * * * * *"}' },
  { method: "POST", path: "/shop/schedule/receive/wow.schedule.reschedule", body: '{"expression": "0 0 0 30 2 *"}' },
  { method: "POST", path: "/shop/schedule/receive/wow.schedule.disable", body: '{"now": true}' },
  { method: "POST", path: "/shop/schedule/receive%23999/wow.schedule.enable", body: "{}" },
  { method: "POST", path: "/shop/schedule/receive/wow.schedule.tick", body: "{}" },
  { method: "GET", path: "/shop/schedule/receive/wow.schedule.enable" },
  { method: "POST", path: "/nowhere/schedule/receive/wow.schedule.enable", body: "{}" },
  { method: "POST", path: "/wow/parked/events/..%2f..%2fx/redrive", body: "{}" },
  { method: "POST", path: "/wow/parked/bogus/x/redrive", body: "{}" },
  { method: "GET", path: "/wow/jobs", headers: { authorization: "Basic b3BlcmF0b3I6eA==" } },
  { method: "GET", path: "/wow/jobs", headers: { authorization: "Bearer" } },
  { method: "GET", path: "/wow/jobs", headers: { authorization: `Bearer ${OPERATOR}x` } },
  { method: "GET", path: "/wow/jobs", headers: { authorization: `Bearer ${OPERATOR.slice(0, -1)}` } },
  // Bodies that are not declared JSON.
  { method: "PUT", path: receive, body: '{"quantity": 1}', headers: { "content-type": "text/plain" } },
  { method: "PUT", path: receive, body: "quantity=1", headers: { "content-type": "application/x-www-form-urlencoded" } },
  { method: "PUT", path: receive, body: '{"quantity": 1}', headers: { "content-type": "application/json; charset=latin1" } },
  { method: "PUT", path: receive, body: '{"quantity": 1}', headers: { "content-type": "" } },
  // Oversized fields, each under the body limit.
  { method: "POST", path: "/shop/schedule/receive/wow.schedule.reschedule", body: JSON.stringify({ expression: `${"1,".repeat(30_000)}1 * * * * *` }) },
  { method: "POST", path: "/shop/schedule/receive/wow.schedule.reschedule", body: JSON.stringify({ zone: "Europe/".padEnd(60_000, "x") }) },
  { method: "POST", path: "/shop/schedule/receive/wow.schedule.reschedule", body: JSON.stringify({ misfire: "C".repeat(60_000) }) },
  { method: "POST", path: "/shop/schedule/report/wow.schedule.enable", body: "{}", headers: { "Command-Tenant-Id": "t".repeat(5_000) } },
  { method: "PUT", path: receive, body: JSON.stringify({ quantity: 1, ["k".repeat(60_000)]: 1 }) },
  { method: "PUT", path: receive, body: JSON.stringify({ quantity: 2147483648 }) },
  { method: "PUT", path: receive, body: JSON.stringify({ quantity: -2147483649 }) },
  { method: "PUT", path: receive, body: '{"quantity": 1}', headers: { "Command-Aggregate-Version": "9".repeat(5_000) } },
  { method: "PUT", path: receive, body: '{"quantity": 1}', headers: { "Command-Wait-Stage": "S".repeat(5_000) } },
  { method: "PUT", path: receive, body: '{"quantity": 1}', headers: { "Command-Wait-Timeout": "9".repeat(5_000) } },
  { method: "GET", path: "/wow/jobs", headers: { authorization: `Bearer ${"t".repeat(8_000)}` } },
];

it("answers 200+ malformed or hostile requests with a 4xx and an error code, never a 500", async () => {
  const random = mulberry32(6);
  const generated: Hostile[] = [];
  const junk = ["{", "}", '"', "\\u0000", "[", "]", ",", ":", "null", "1e999", "\u2028", "💥", "<script>", "%", "\\"];
  const segments = ["..", ".", "%2e%2e", "%2F", "%00", "%ff", "wow", "shop", "schedule", "tenant", "(0)", "order", "stock", "x", ""];
  while (generated.length + FIXED.length < 220) {
    const kind = intBetween(random, 0, 3);
    if (kind === 0) {
      const text = Array.from({ length: intBetween(random, 1, 30) }, () => pick(random, junk)).join("");
      generated.push({ method: pick(random, ["POST", "PUT"]), path: pick(random, [create, receive]), body: text });
    } else if (kind === 1) {
      const path = "/" + Array.from({ length: intBetween(random, 1, 7) }, () => pick(random, segments)).join("/");
      generated.push({ method: pick(random, ["GET", "POST", "PUT", "DELETE", "OPTIONS"]), path, body: "{}" });
    } else if (kind === 2) {
      const value = pick(random, ["\"1\"", "[]", "{}", "-1.5", "true", "null", "\"\"", "9007199254740993"]);
      generated.push({ method: "PUT", path: receive, body: `{"quantity": ${value}}` });
    } else {
      generated.push({ method: "PUT", path: receive, body: "z".repeat(intBetween(random, 65 * 1024, 300 * 1024)) });
    }
  }
  const all = [...FIXED, ...generated];
  const failures: string[] = [];
  for (const h of all) {
    const r = await raw(h);
    const ok = r.status >= 400 && r.status < 500 && (r.status === 413 || r.code !== undefined);
    if (!ok) failures.push(`${h.method} ${h.path.slice(0, 80)} ${String(h.body ?? "").slice(0, 40)} → ${r.status} ${r.code} ${r.body.slice(0, 120)}`);
  }
  expect(all.length).toBeGreaterThanOrEqual(200);
  expect(failures).toEqual([]);
  const healthy = await s.call("GET", "/wow/jobs");
  expect(healthy.status).toBe(200);
  // Nothing was stored from the oversized rule, and the server reported no fault of its own.
  expect(JSON.stringify(healthy.json).length).toBeLessThan(50_000);
  expect(s.serverErrors).toEqual([]);
});
