// A host for the console's tests, on 127.0.0.1 with the real clock: the shop domain (a SYSTEM job,
// a TENANT job), a gauge whose sensor can be down (its scheduled reading fails technically, parks,
// and is delivered once re-driven after the sensor is back), three credentials, and the console built
// from its sources into a temporary folder.
import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { createHost, Decision, MemoryStore, type AggregateRegistration, type Store, type WowHost } from "../../runtime/index.js";
import { order, probe, receiveJob, shopSaga, stock, suppliers } from "../runtime/sagas/saga-domain.js";

export const OPERATOR = "operator-token-0123456789";
export const ACME = "acme-tenant-token-0123456789";
export const GLOBEX = "globex-tenant-token-0123456789";

/** Whether the gauge's sensor answers. */
export const sensor = { down: true };

export const gauge: AggregateRegistration<{ readings: number }> = {
  context: "shop",
  aggregate: "Gauge",
  initialState: () => ({ readings: 0 }),
  commands: {
    "shop.Install": { decide: () => Decision.events({ type: "shop.Installed", body: {} }) },
    "shop.Read": {
      decide: () => {
        if (sensor.down) throw new Error("the gauge's sensor does not answer\n    at readSensor (gauge.ts:12:7)\n    at decide (gauge.ts:30:3)");
        return Decision.events({ type: "shop.ReadingTaken", body: {} });
      },
    },
  },
  events: { "shop.Installed": (s) => s, "shop.ReadingTaken": (s) => ({ readings: s.readings + 1 }) },
};

/** Builds the console from console/ into a temporary folder (what `npm run build` writes into dist/console). */
export async function buildConsole(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "wowc-console-"));
  await build({ configFile: fileURLToPath(new URL("../../console/vite.config.ts", import.meta.url)), build: { outDir, emptyOutDir: true }, logLevel: "error" });
  return outDir;
}

export interface ConsoleHost {
  readonly host: WowHost;
  readonly base: string;
  readonly console: string;
  close(): Promise<void>;
}

export async function consoleHost(folder: string, store: Store = new MemoryStore()): Promise<ConsoleHost> {
  const host = createHost({
    registrations: [order, stock, gauge, shopSaga(probe(), [receiveJob(), receiveJob({ name: "report", function: "report", subscription: "ShopSaga.report", scope: "TENANT" })])],
    store,
    services: { "shop.Suppliers": suppliers },
    timers: { pollInterval: "50ms", maxAttempts: 1 },
    subscriptions: { pollInterval: "50ms", maxAttempts: 1 },
    http: { credentials: [{ token: OPERATOR }, { token: ACME, tenant: "acme" }, { token: GLOBEX, tenant: "globex" }], consoleFolder: folder, onServerError: (error) => console.error(error) },
    onError: () => {},
  });
  await host.start();
  const server = await host.listen(0);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { host, base, console: `${base}/wow/console/`, close: () => host.close() };
}
