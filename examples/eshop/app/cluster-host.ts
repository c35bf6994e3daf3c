// One host of the cluster tour: the e-shop on PostgreSQL, its HTTP API on a free port (printed as
// `serving <port>`), until SIGTERM or SIGKILL.   tsx cluster-host.ts <host-id>   (env: the store's URL and schema)
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createHost } from "wowc/runtime";
import { loadConfig } from "../generated/index.js";
import { order, stock, stockSaga } from "../src/index.js";
import { tourServices } from "./services.js";

const id = process.argv[2];
const url = process.env["EXAMPLE_STORE_URL"];
const schema = process.env["EXAMPLE_STORE_SCHEMA"];
if (id === undefined || url === undefined || schema === undefined) throw new Error("usage: EXAMPLE_STORE_URL=… EXAMPLE_STORE_SCHEMA=… tsx cluster-host.ts <host-id>");

const loaded = loadConfig({ cwd: join(dirname(fileURLToPath(import.meta.url)), "..") });
// Short heartbeats and lease, so that the takeover shows within the tour.
const config = { ...loaded, wow: { ...loaded.wow, store: { url, schema }, cluster: { heartbeat: "500ms", lease: "3s", partitions: 4 } } };
const host = createHost({ registrations: [order, stock, stockSaga], store: url, config, services: tourServices(), hostId: id });
await host.start();
const server = await host.listen(0);
const address = server.address();
process.stdout.write(`serving ${typeof address === "object" && address ? address.port : 0}\n`);
process.on("SIGTERM", () => void host.close().then(() => process.exit(0)));
