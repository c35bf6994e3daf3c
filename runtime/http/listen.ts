import { createServer, type Server } from "node:http";
import type { RequestListener } from "./request-listener.js";

/** A Node HTTP server for `listener`, listening on `hostname:port` (0: a free port). */
export function listen(listener: RequestListener, port: number, hostname: string): Promise<Server> {
  const server = createServer(listener);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}
