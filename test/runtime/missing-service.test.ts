// A handler that lists a service the host does not provide: createHost refuses to start, naming
// every missing service and the handlers that list it (not the first command that needs it, which
// may come hours later from a timer). The core Host, built by hand, still fails that command loudly.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { aggregateRef, commandMessage, createHost, Host, MemoryStore, type AggregateRegistration, type SagaRegistration } from "../../runtime/index.js";

let decided = 0;
const cart: AggregateRegistration = {
  context: "shop",
  aggregate: "Cart",
  initialState: () => ({}),
  commands: {
    "shop.Price": { services: ["shop.PriceList"], decide: () => (decided++, { kind: "noop" }) },
    "shop.Empty": { decide: () => ({ kind: "noop" }) },
  },
  events: {},
};

const mails: SagaRegistration = {
  context: "shop",
  saga: "Mails",
  events: {
    "shop.Priced": { function: "onPriced", subscription: "Mails.onPriced", blocking: false, commands: [], schedules: [], services: ["shop.Mailer", "shop.PriceList"], handle: () => [] },
  },
  rejections: {
    "shop.Price": { function: "onPriceRejected", subscription: "Mails.onPriceRejected", blocking: false, services: ["shop.Mailer"], handle: () => {} },
  },
  jobs: [],
};

it("createHost refuses to start without a listed service, naming each and who lists it, and opens no store", () => {
  const dir = mkdtempSync(join(tmpdir(), "wowc-services-"));
  try {
    expect(() => createHost({ registrations: [cart, mails], store: join(dir, "wow.db"), services: { "shop.Unused": {} } })).toThrow(
      "the host does not provide the services shop.PriceList (listed by shop.Price, Mails.onPriced); shop.Mailer (listed by Mails.onPriced, Mails.onPriceRejected)",
    );
    expect(readdirSync(dir)).toEqual([]);
    expect(() => createHost({ registrations: [cart, mails], store: new MemoryStore(), services: { "shop.PriceList": {} } })).toThrow(
      "the host does not provide the service shop.Mailer (listed by Mails.onPriced, Mails.onPriceRejected): pass it in createHost's `services`",
    );
    expect(() => createHost({ registrations: [cart, mails], store: new MemoryStore(), services: { "shop.PriceList": {}, "shop.Mailer": {} } })).not.toThrow();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it("the core Host fails a command whose service is missing with both names, and decides nothing", async () => {
  const host = new Host({ store: new MemoryStore(), aggregates: [cart] });
  const price = commandMessage("shop.Price", {}, aggregateRef("shop", "Cart", "c-1"));
  await expect(host.send(price)).rejects.toThrow("shop.Price: service shop.PriceList is not provided by the host");
  expect(decided).toBe(0);
  await expect(host.send(commandMessage("shop.Empty", {}, aggregateRef("shop", "Cart", "c-1")))).resolves.toMatchObject({ outcome: "decided" });
});
