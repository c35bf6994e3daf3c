import { describe, expect, it } from "vitest";
import { codes, parse } from "./helpers.js";

/** Parses `text` and returns `CODE@line:col message` of each diagnostic. */
function report(text: string): string[] {
  const { diagnostics } = parse(text);
  const at = codes(text, diagnostics);
  return diagnostics.map((d, i) => `${at[i]} ${d.message}`);
}

describe("syntax diagnostics", () => {
  it("WOW1001 unexpected character, with its exact span", () => {
    const text = "context c\ntype T { x: int # }";
    const { diagnostics } = parse(text);
    expect(report(text)).toEqual(["WOW1001@2:17 Unexpected character '#'."]);
    expect(diagnostics[0]!.loc).toMatchObject({ start: 26, end: 27 });
    expect(diagnostics[0]!.hint).toBeDefined();
  });

  it("WOW1001 shows invisible characters readably", () => {
    expect(report("context c\u0000")).toEqual(["WOW1001@1:10 Unexpected character '\\u{0}'."]);
  });

  it("WOW1002 names what was found and what was expected", () => {
    expect(report("context c\ntype T { x int }")).toEqual([
      "WOW1002@2:12 Unexpected 'int': expected ':' between the field name and its type (`name: type`).",
    ]);
    expect(report("context c\n}")).toEqual([
      "WOW1002@2:1 Unexpected '}': expected a declaration: `type`, `enum`, `service`, `aggregate` or `saga`.",
    ]);
    expect(report("context c\nsaga S {\n  @OnEvent(commands = [C]\n  on E\n}")).toEqual([
      "WOW1002@4:3 Unexpected 'on': expected ')' to close the arguments of @OnEvent.",
    ]);
    expect(report("context c\nsaga S { @OnEvent(x = ) on E }")).toEqual([
      "WOW1002@2:23 Unexpected ')': expected a value: a string, a number, `true`, `false`, a name or a list `[…]`.",
    ]);
  });

  it("WOW1003 unterminated string", () => {
    const text = 'context c\nsaga S {\n  @OnSchedule(name = "x)\n  job j\n}';
    const { diagnostics } = parse(text);
    expect(diagnostics[0]!.code).toBe("WOW1003");
    expect(codes(text, diagnostics)[0]).toBe("WOW1003@3:22");
    expect(text.slice(diagnostics[0]!.loc!.start, diagnostics[0]!.loc!.end)).toBe('"x)');
  });

  it("WOW1004 unterminated comment points at its opening", () => {
    expect(report("context c\n  /* never closed\ntype T {}")).toEqual(["WOW1004@2:3 Unterminated comment: '/*' has no matching '*/'."]);
  });

  it("WOW1005 a file must begin with `context <name>`", () => {
    expect(report("type T {}")).toEqual(["WOW1005@1:1 A file must begin with `context <name>`; found 'type'."]);
    expect(report("// only a comment\ncontxt eshop")).toEqual(["WOW1005@2:1 A file must begin with `context <name>`; found 'contxt'."]);
    expect(report("")).toEqual(["WOW1005@1:1 A file must begin with `context <name>`; found an empty file."]);
    const { ast } = parse("service S\ncontext late");
    expect(ast.context?.name.text).toBe("late");
  });

  it("WOW1006 names the block left open, at the next declaration or at the end of the file", () => {
    expect(report("context c\naggregate Order {\n  command C\n\naggregate B {}")).toEqual([
      "WOW1006@5:1 Unexpected 'aggregate': expected '}' to close aggregate 'Order'.",
    ]);
    const atEnd = "context c\naggregate Order {\n  command C { x: int\n  event E\n}";
    expect(report(atEnd)).toEqual(["WOW1006@4:3 Unexpected 'event': expected '}' to close the fields of command 'C'."]);
    const eof = "context c\nsaga S {\n  on X\n";
    const { diagnostics } = parse(eof);
    expect(report(eof)).toEqual(["WOW1006@3:7 Unexpected end of file: expected '}' to close saga 'S'."]);
    expect(diagnostics[0]!.loc).toMatchObject({ start: eof.length - 1, end: eof.length - 1 });
    expect(diagnostics[0]!.hint).toBe("The block opened at line 2 is never closed; add its closing brace.");
  });

  it("WOW1007 expected a name, in the words of the place", () => {
    expect(report("context c\ntype T { x: int, 1: int }")).toEqual([
      "WOW1007@2:18 Unexpected number 1: expected a field `name: type` or '}' in type 'T'.",
    ]);
    expect(report("context c\naggregate { }")).toEqual(["WOW1007@2:11 Unexpected '{': expected an aggregate name after `aggregate`."]);
    expect(report("context\n")).toEqual(["WOW1007@1:8 Unexpected end of file: expected a context name after `context` (e.g. `context eshop-order`)."]);
    expect(report('context c\ntype T { x: "s" }')).toEqual(["WOW1007@2:13 Unexpected string \"s\": expected a type after ':'."]);
    expect(report("context c\nsaga S { on x. }")).toEqual(["WOW1007@2:16 Unexpected '}': expected a name after '.' (`context-name.Name`)."]);
  });

  it("WOW1008 unknown escape sequence, and known escapes decode", () => {
    const text = 'context c\nsaga S { @A(x = "a\\qb", y = "\\"\\n\\u0041\\u{1F600}") on E }';
    const { ast, diagnostics } = parse(text);
    expect(codes(text, diagnostics)).toEqual(["WOW1008@2:19"]);
    const saga = ast.declarations[0]!;
    const args = saga.kind === "Saga" ? saga.members[0]!.annotations[0]!.args : [];
    expect(args.map((a) => (a.value.kind === "String" ? a.value.value : ""))).toEqual(["a\\qb", '"\nA\u{1F600}']);
  });

  it("WOW1009 a second context clause", () => {
    expect(report("context a\nservice S\ncontext b")).toEqual([
      "WOW1009@3:1 A second `context` clause: a file belongs to one context, named once on its first line.",
    ]);
  });

  it("WOW1010 members out of place", () => {
    const text = "context c\ncommand C {}\nsaga S { state { x: int } event E }\naggregate A { job k() }\non X\n";
    expect(report(text)).toEqual([
      "WOW1010@2:1 A command cannot be declared outside an aggregate.",
      "WOW1010@3:10 A state block cannot be declared in a saga.",
      "WOW1010@3:27 An event cannot be declared in a saga.",
      "WOW1010@4:15 A job cannot be declared in an aggregate.",
      "WOW1010@5:1 A handler cannot be declared outside an aggregate or a saga.",
    ]);
    expect(report("context c\naggregate A { @Foo state {} }")).toEqual(["WOW1010@2:15 An annotation (@Foo) cannot be declared on a state block."]);
  });

  it("WOW1011 items on one line need commas", () => {
    expect(report("context c\ntype T { x: int y: int }\nenum E { A B }")).toEqual([
      "WOW1011@2:17 Missing ',' or new line between fields.",
      "WOW1011@3:12 Missing ',' or new line between enum members.",
    ]);
    expect(report("context c\nsaga S { @A(x = [a b]) on E(p: P q: Q) }")).toEqual([
      "WOW1011@2:20 Missing ',' or new line between list values.",
      "WOW1011@2:34 Missing ',' or new line between parameters.",
    ]);
  });

  it("WOW1012 an annotation must be followed by a declaration", () => {
    expect(report("context c\nsaga S {\n  @OnEvent(commands = [C])\n}")).toEqual([
      "WOW1012@4:1 Unexpected '}': an annotation must be followed by a command, an event, a state block, a handler (`on …`) or a job.",
    ]);
  });

  it("every diagnostic of the syntax table has a hint or a self-explaining message", () => {
    const { diagnostics } = parse("context c\ntype T { x: int # }");
    expect(diagnostics.every((d) => d.severity === "error")).toBe(true);
  });
});

describe("recovery", () => {
  it("reports several errors of one file, each once", () => {
    const text = `context c
type A { x int }
enum E { A B }
aggregate Order {
  command C { 1: int }
  @OnCommand(produces = [E)
  on C
}
saga S {
  on
}
service
`;
    expect(codes(text, parse(text).diagnostics)).toEqual([
      "WOW1002@2:12",
      "WOW1011@3:12",
      "WOW1007@5:15",
      "WOW1002@6:27",
      "WOW1007@11:1",
      "WOW1007@12:8",
    ]);
  });

  it("one missing brace is one error, and the declarations after it are kept", () => {
    const text = "context c\naggregate A {\n  command C { x: int\n  event E {}\n  on C\n}\ntype T { y: string }\nservice S";
    const { ast, diagnostics } = parse(text);
    expect(diagnostics.map((d) => d.code)).toEqual(["WOW1006"]);
    expect(ast.declarations.map((d) => d.name.text)).toEqual(["A", "T", "S"]);
    const aggregate = ast.declarations[0]!;
    expect(aggregate.kind === "Aggregate" && aggregate.members.map((m) => m.kind)).toEqual(["Command", "Event", "Handler"]);
  });

  it("resumes after stray tokens at the top level", () => {
    const text = "context c\n}\ntype T { x: int }\n) ) )\nservice S";
    const { ast, diagnostics } = parse(text);
    expect(codes(text, diagnostics)).toEqual(["WOW1002@2:1", "WOW1002@4:1"]);
    expect(ast.declarations.map((d) => d.name.text)).toEqual(["T", "S"]);
  });
});
