import { describe, expect, it } from "vitest";
import type { AggregateDeclaration, EnumDeclaration, HandlerDeclaration, SagaDeclaration, TypeDeclaration } from "../../compiler/ast.js";
import { parse } from "./helpers.js";

const WORDS = ["type", "state", "event", "command", "on", "context", "job", "enum", "service", "aggregate", "saga", "true", "false", "class", "default", "new", "delete"];

describe("contextual keywords", () => {
  it("are accepted as field names, one per line and comma-separated", () => {
    const lines = WORDS.map((w) => `  ${w}: string`).join("\n");
    const { ast, diagnostics } = parse(`context c\ntype T {\n${lines}\n}\ntype U { ${WORDS.map((w) => `${w}: int`).join(", ")} }`);
    expect(diagnostics).toEqual([]);
    for (const declaration of ast.declarations) {
      expect((declaration as TypeDeclaration).fields.map((f) => f.name.text)).toEqual(WORDS);
    }
  });

  it("are accepted as state, command and event field names, and as parameter names", () => {
    const text = `context c
aggregate A {
  state { state: int, on: string }
  command Do { command: string, event: string }
  event Done { type: string }
  on Do(job: S, context: S, class: S)
}
saga G {
  on c.Done(on: S)
  job run(type: S, new: S)
}`;
    const { ast, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    const aggregate = ast.declarations[0] as AggregateDeclaration;
    const handler = aggregate.members[3]!;
    expect(handler.kind === "Handler" && handler.params.map((p) => p.name.text)).toEqual(["job", "context", "class"]);
    const saga = ast.declarations[1] as SagaDeclaration;
    expect(saga.members.map((m) => (m.kind === "Job" ? m.params.map((p) => p.name.text) : m.params.map((p) => p.name.text)))).toEqual([["on"], ["type", "new"]]);
  });

  it("are accepted as enum members and annotation argument names", () => {
    const { ast, diagnostics } = parse(`context c
enum E { state, on, job, default, true }
saga S {
  @OnEvent(type = "x", event = 1, state = true, on = [a, b,])
  on X
}`);
    expect(diagnostics).toEqual([]);
    expect((ast.declarations[0] as EnumDeclaration).members.map((m) => m.name.text)).toEqual(["state", "on", "job", "default", "true"]);
    const handler = (ast.declarations[1] as SagaDeclaration).members[0]!;
    expect(handler.annotations[0]!.args.map((a) => `${a.name.text}=${a.value.kind}`)).toEqual(["type=String", "event=Number", "state=Boolean", "on=List"]);
  });

  it("lexes longer words and dashed names as identifiers", () => {
    const { ast, diagnostics } = parse("context eshop-order\ntype typed { contexts: on-hold, statement: eshop-order.Jobs }\naggregate-x");
    expect(diagnostics.map((d) => d.code)).toEqual(["WOW1002"]);
    const type = ast.declarations[0] as TypeDeclaration;
    expect(type.name.text).toBe("typed");
    expect(type.fields.map((f) => `${f.name.text}:${f.type.name.text}`)).toEqual(["contexts:on-hold", "statement:eshop-order.Jobs"]);
    expect(type.fields[1]!.type.name.context?.text).toBe("eshop-order");
  });
});

describe("separators", () => {
  it("accepts commas, new lines, both, and trailing commas", () => {
    const { ast, diagnostics } = parse(`context c
type A { x: int, y: int }
type B {
  x: int
  y: int
}
type C {
  x: int,
  y: int,
}
enum E {
  A
  B,
  C,
}
saga S {
  @OnEvent(commands = [
    A
    B,
  ]
  schedules = [C])
  on X(a: P
       b: Q,)
}`);
    expect(diagnostics).toEqual([]);
    expect(ast.declarations.slice(0, 3).map((d) => (d as TypeDeclaration).fields.length)).toEqual([2, 2, 2]);
    expect((ast.declarations[3] as EnumDeclaration).members.length).toBe(3);
    const handler = (ast.declarations[4] as SagaDeclaration).members[0]!;
    expect(handler.params.length).toBe(2);
    const commands = handler.annotations[0]!.args[0]!.value;
    expect(commands.kind === "List" && commands.items.length).toBe(2);
  });

  it("accepts types with ? and [] suffixes", () => {
    const { ast, diagnostics } = parse("context c\ntype T { a: int?, b: int[], c: int[]?, d: c.T[] }");
    expect(diagnostics).toEqual([]);
    const fields = (ast.declarations[0] as TypeDeclaration).fields;
    expect(fields.map((f) => [f.type.array, f.type.optional])).toEqual([[false, true], [true, false], [true, true], [true, false]]);
    expect(fields.map((f) => f.type.loc.end - f.type.loc.start)).toEqual([4, 5, 6, 5]);
  });

  it("gives each field, annotation argument and reference the span of its text", () => {
    const text = "context c\ntype T { id: string, items: c.Item[]?,\n  at: int }\nsaga S { @OnEvent(commands = [Ship, c.Cancel], blocking = true) on c.Placed }";
    const { ast, diagnostics } = parse(text);
    expect(diagnostics).toEqual([]);
    const spanned = (loc: { start: number; end: number }) => text.slice(loc.start, loc.end);
    const fields = (ast.declarations[0] as TypeDeclaration).fields;
    expect(fields.map((f) => spanned(f.loc))).toEqual(["id: string", "items: c.Item[]?", "at: int"]);
    expect(fields.map((f) => spanned(f.name.loc))).toEqual(["id", "items", "at"]);
    expect(fields.map((f) => f.loc.file.path)).toEqual(["test.wow", "test.wow", "test.wow"]);
    const [type, qualified] = [fields[0]!.type.name, fields[1]!.type.name];
    expect([type.text, type.name.text, type.context, spanned(type.loc)]).toEqual(["string", "string", undefined, "string"]);
    expect([qualified.text, qualified.name.text, qualified.context?.text, spanned(qualified.loc)]).toEqual(["c.Item", "Item", "c", "c.Item"]);
    const handler = (ast.declarations[1] as SagaDeclaration).members[0] as HandlerDeclaration;
    const args = handler.annotations[0]!.args;
    expect(args.map((a) => spanned(a.loc))).toEqual(["commands = [Ship, c.Cancel]", "blocking = true"]);
    const list = args[0]!.value;
    expect(list.kind === "List" && list.items.map((item) => (item.kind === "Reference" ? [item.name.text, spanned(item.loc)] : []))).toEqual([["Ship", "Ship"], ["c.Cancel", "c.Cancel"]]);
    expect([handler.target.text, spanned(handler.target.loc)]).toEqual(["c.Placed", "c.Placed"]);
  });

  it("keeps lists with nothing in them empty and read-only", () => {
    const { ast } = parse("context c\ntype T {}\ntype U\nservice S");
    const [t, u, s] = ast.declarations as [TypeDeclaration, TypeDeclaration, { annotations: readonly unknown[] }];
    for (const list of [t.fields, u.fields, t.annotations, s.annotations]) {
      expect(list).toEqual([]);
      expect(() => (list as unknown[]).push(1)).toThrow(TypeError);
    }
  });

  it("accepts commands and events with {}, or with no body, and annotations without parentheses", () => {
    const { ast, diagnostics } = parse("context c\naggregate A {\n @CreateAggregate command C\n @DeleteAggregate() command D {}\n event E\n on C\n}");
    expect(diagnostics).toEqual([]);
    const members = (ast.declarations[0] as AggregateDeclaration).members;
    expect(members.map((m) => (m.kind === "Handler" ? "on" : m.kind === "State" ? "state" : `${m.kind}:${m.fields.length}:${m.annotations.map((a) => a.parenthesized).join()}`))).toEqual([
      "Command:0:false", "Command:0:true", "Event:0:", "on",
    ]);
  });
});
