// WOW2012 beyond its documented case: the `define…` prefix, two derived names that meet, and the
// declarations that export no name of their own (services, sagas) or live in another context.
import { describe, expect, it } from "vitest";
import { compile, diagnose } from "./helpers.js";

const order = `
  context shop
  aggregate Order {
    command PlaceOrder {}
    event OrderPlaced {}
    @OnCommand(produces = [OrderPlaced])
    on PlaceOrder
  }
`;

describe("WOW2012: names the SDK would export twice", () => {
  it("refuses a declaration named like a prefixed name (define…)", () => {
    expect(diagnose(`${order}\ntype defineOrder { id: string }`)).toEqual(["WOW2012 9:6"]);
  });

  it("refuses two derived names that meet, at the define… declaration", () => {
    const { diagnostics } = compile(`${order}
      saga defineShip {
        @OnEvent
        on OrderPlaced
      }
      aggregate ShipHandlers {
        command Ship {}
        event Shipped {}
        @OnCommand(produces = [Shipped])
        on Ship
      }
    `);
    const clash = diagnostics.filter((d) => d.code === "WOW2012");
    expect(clash.map((d) => d.message)).toEqual([
      "The SDK of context 'shop' would export 'defineShipHandlers' twice: for the handlers of saga 'defineShip' and for the `define` function of aggregate 'ShipHandlers'.",
    ]);
    expect(clash[0]!.hint).toMatch(/Rename saga 'defineShip'\.$/);
  });

  it("lets services, sagas and other contexts use such names: they export none of their own here", () => {
    expect(diagnose(`${order}
      service OrderState
      saga OrderEvents {
        @OnEvent
        on OrderPlaced
      }
    `)).toEqual([]);
    expect(
      diagnose({
        "shop.wow": order,
        "billing.wow": `
          context billing
          enum OrderState { OPEN }
          type PlaceOrderCommand { id: string }
        `,
      }),
    ).toEqual([]);
  });
});
