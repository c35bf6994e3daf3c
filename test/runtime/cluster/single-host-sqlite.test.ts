// A SQLite store serves one host: a second host started on the same file is refused with a message
// that points to PostgreSQL; once the first stops, another may start on it.
import { describe, expect, it } from "vitest";
import { createHost, systemClock } from "../../../runtime/index.js";
import { SingleHostStoreError } from "../../../runtime/hosting/single-host-lock.js";
import { tempDbPath } from "../fixtures/stores.js";
import { seeder, target } from "../fixtures/timer-domain.js";

describe("a SQLite file serves one host", () => {
  it("refuses a second host on the file, pointing to PostgreSQL, and lets one start after the first stopped", async () => {
    const path = tempDbPath();
    const registrations = [seeder, target(() => systemClock.now())];
    const first = createHost({ registrations, store: path, hostId: "first" });
    await first.start();
    const second = createHost({ registrations, store: path, hostId: "second" });
    const refused = await second.start().then(() => undefined, (error: unknown) => error);
    expect(refused).toBeInstanceOf(SingleHostStoreError);
    expect((refused as Error).message).toMatch(/in use by host first .*a SQLite store serves one host.*PostgreSQL/);
    await second.close();
    await first.close();
    const third = createHost({ registrations, store: path, hostId: "third" });
    await third.start();
    await third.close();
  });
});
