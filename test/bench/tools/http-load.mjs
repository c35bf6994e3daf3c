// A load generator in a process of its own (as wrk would be): keep-alive node:http PUTs of one body,
// `concurrency` in flight, until `count` are answered. Prints one JSON line: { per_s, statuses }.
//   node http-load.mjs <port> <count> <concurrency> <token> <path-prefix>
import { Agent, request } from "node:http";

const [port, count, concurrency, token, prefix] = [Number(process.argv[2]), Number(process.argv[3]), Number(process.argv[4]), process.argv[5], process.argv[6]];
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const BODY = '{"quantity":1}';
const PRODUCTS = 256;
const statuses = {};

function put(path) {
  return new Promise((resolve, reject) => {
    const req = request(
      { agent, host: "127.0.0.1", port, method: "PUT", path, headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": BODY.length } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(BODY);
  });
}

let next = 0;
const started = process.hrtime.bigint();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++;
      const status = await put(`${prefix}/p-${i % PRODUCTS}/receive_stock`);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  }),
);
const per_s = count / (Number(process.hrtime.bigint() - started) / 1e9);
agent.destroy();
process.stdout.write(JSON.stringify({ per_s, statuses }) + "\n");
