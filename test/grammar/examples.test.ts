import { describe, expect, it } from "vitest";
import type { AggregateDeclaration, HandlerDeclaration, JobDeclaration, SagaDeclaration } from "../../compiler/ast.js";
import { parseFile } from "../../compiler/parse/parse-file.js";
import { example, slice } from "./helpers.js";

describe("examples/eshop", () => {
  it("order.wow parses without diagnostics", () => {
    const file = example("order");
    const { ast, diagnostics } = parseFile(file);
    expect(diagnostics).toEqual([]);
    expect(ast.context?.name.text).toBe("eshop-order");
    expect(ast.declarations.map((d) => `${d.kind} ${d.name.text}`)).toEqual([
      "Enum OrderStatus", "Enum CancelReason", "Type OrderItem", "Service PaymentPolicy", "Aggregate Order",
    ]);
    const policy = ast.declarations[3]!;
    expect(policy.doc).toBe("Host-provided: how long an order waits for payment.");
    expect(slice(file, policy.loc)).toBe("service PaymentPolicy");
    const order = ast.declarations[4] as AggregateDeclaration;
    expect(order.members.map((m) => (m.kind === "State" ? "State" : m.kind === "Handler" ? `on ${m.target.text}` : `${m.kind} ${m.name.text}`))).toEqual([
      "State",
      "Command CreateOrder", "Command ConfirmOrderStock", "Command PayOrder", "Command CancelOrder",
      "Event OrderCreated", "Event OrderStockItemConfirmed", "Event OrderStockConfirmed", "Event OrderPaid", "Event OrderCancelled",
      "on CreateOrder", "on ConfirmOrderStock", "on PayOrder", "on CancelOrder",
    ]);
    const state = order.members[0]!;
    expect(state.kind === "State" && state.fields.map((f) => `${f.name.text}:${f.type.name.text}${f.type.array ? "[]" : ""}${f.type.optional ? "?" : ""}`)).toEqual([
      "status:OrderStatus", "items:OrderItem[]", "confirmedProducts:string[]", "paidAt:instant?",
    ]);
    const create = order.members[1]!;
    expect(create.kind === "Command" && create.annotations.map((a) => [a.name.text, a.parenthesized, a.args.length])).toEqual([["CreateAggregate", false, 0]]);
    expect(slice(file, create.loc)).toBe("@CreateAggregate\n  command CreateOrder { items: OrderItem[] }");
    const confirm = order.members[11] as HandlerDeclaration;
    expect(confirm.params.map((p) => `${p.name.text}: ${p.type.text}`)).toEqual(["paymentPolicy: PaymentPolicy"]);
    const [annotation] = confirm.annotations;
    expect(annotation!.args.map((a) => a.name.text)).toEqual(["produces", "schedules"]);
    const produces = annotation!.args[0]!.value;
    expect(produces.kind === "List" && produces.items.map((i) => (i.kind === "Reference" ? i.name.text : "?"))).toEqual([
      "OrderStockItemConfirmed", "OrderStockConfirmed",
    ]);
    expect(ast.comments.map((c) => c.kind)).toEqual(["Line", "Doc"]);
  });

  it("inventory.wow parses without diagnostics, with qualified references and the job", () => {
    const file = example("inventory");
    const { ast, diagnostics } = parseFile(file);
    expect(diagnostics).toEqual([]);
    expect(ast.context?.name.text).toBe("eshop-inventory");
    const saga = ast.declarations.find((d) => d.kind === "Saga") as SagaDeclaration;
    expect(saga.name.text).toBe("StockSaga");
    const first = saga.members[0] as HandlerDeclaration;
    expect(first.target.context?.text).toBe("eshop-order");
    expect(first.target.name.text).toBe("OrderCreated");
    expect(first.target.text).toBe("eshop-order.OrderCreated");
    expect(slice(file, first.target.loc)).toBe("eshop-order.OrderCreated");
    const job = saga.members[5] as JobDeclaration;
    expect(job.kind).toBe("Job");
    expect(job.name.text).toBe("receiveDeliveries");
    expect(job.annotations.map((a) => a.name.text)).toEqual(["Blocking", "OnSchedule", "Retry"]);
    const schedule = job.annotations[1]!;
    expect(Object.fromEntries(schedule.args.map((a) => [a.name.text, a.value.kind === "String" ? a.value.value : a.value.kind === "Reference" ? a.value.name.text : a.value.kind]))).toEqual({
      name: "receive-deliveries", cron: "0 0 6 * * *", zone: "UTC", misfire: "COALESCE", commands: "List", overlap: "SKIP", timeout: "10m",
    });
    expect(job.params.map((p) => `${p.name.text}: ${p.type.text}`)).toEqual(["deliveries: Deliveries"]);
    expect(slice(file, saga.loc).endsWith("job receiveDeliveries(deliveries: Deliveries)\n}")).toBe(true);
  });
});
