// A handler that lists a service the host does not provide fails loudly, naming the service and
// the handler, and commits nothing: its decide function is never called without it.
import { expect, it } from "vitest";
import { aggregateRef, commandMessage, createHost, MemoryJournal, type AggregateRegistration, type CommandMessage } from "../../runtime/index.js";

let decided = 0;
const cart: AggregateRegistration = {
  context: "shop",
  aggregate: "Cart",
  initialState: () => ({}),
  commands: {
    "shop.Price": {
      services: ["shop.PriceList"],
      decide: () => {
        decided++;
        return { kind: "noop" };
      },
    },
  },
  events: {},
};

function price(id: string): CommandMessage {
  return commandMessage("shop.Price", {}, aggregateRef("shop", "Cart", "c-1"), { requestId: id });
}

it("a command whose handler lists a service the host lacks fails with both names, and decides nothing", async () => {
  const journal = new MemoryJournal();
  const host = createHost({ registrations: [cart], store: journal });
  await expect(host.send(price("r-1"))).rejects.toThrow("shop.Price: service shop.PriceList is not provided by the host");
  expect(decided).toBe(0);
  const withService = createHost({ registrations: [cart], store: journal, services: { "shop.PriceList": {} } });
  await expect(withService.send(price("r-2"))).resolves.toMatchObject({ outcome: "decided" });
  expect(decided).toBe(1);
});
