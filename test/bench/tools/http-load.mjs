// A load generator in a process of its own, as wrk is: `concurrency` keep-alive connections, each
// with one request in flight (the next sent when its answer is in), until `count` are answered. Like
// wrk it writes prepared request bytes and reads only what it needs of an answer (status line,
// Content-Length), so the client's cost per request stays small next to the server's.
// Prints one JSON line: { per_s, statuses }.
//   node http-load.mjs <port> <count> <concurrency> <token> <path-prefix>
import { connect } from "node:net";

const [port, count, concurrency, token, prefix] = [Number(process.argv[2]), Number(process.argv[3]), Number(process.argv[4]), process.argv[5], process.argv[6]];
const BODY = '{"quantity":1}';
const PRODUCTS = 256;
const statuses = {};
/** One prepared request per product (the path names it). */
const requests = Array.from({ length: PRODUCTS }, (_, p) =>
  Buffer.from(
    `PUT ${prefix}/p-${p}/receive_stock HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`,
  ),
);

let sent = 0;
let answered = 0;
const started = process.hrtime.bigint();

const done = new Promise((resolve, reject) => {
  const open = (socket) => {
    let buffered = Buffer.alloc(0);
    const next = () => {
      if (sent >= count) return socket.end();
      socket.write(requests[sent++ % PRODUCTS]);
    };
    socket.setNoDelay(true);
    socket.on("data", (chunk) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buffered.toString("latin1", 0, end);
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const status = Number(head.slice(9, 12));
        statuses[status] = (statuses[status] ?? 0) + 1;
        buffered = buffered.subarray(end + 4 + length);
        if (++answered === count) resolve();
        next();
      }
    });
    socket.on("error", reject);
    next();
  };
  for (let i = 0; i < Math.min(concurrency, count); i++) {
    const socket = connect(port, "127.0.0.1");
    socket.on("connect", () => open(socket));
    socket.on("error", reject);
  }
});

await done;
const per_s = count / (Number(process.hrtime.bigint() - started) / 1e9);
process.stdout.write(JSON.stringify({ per_s, statuses }) + "\n");
process.exit(0);
