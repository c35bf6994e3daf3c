// Syntax errors found by an audit of the `.wow` front end: valid sources refused, real errors
// dropped, one typo reported many times, hints that do not say what to write, columns off by one.
import { describe, expect, it } from "vitest";
import type { Diagnostic } from "../../compiler/diagnostics/diagnostic.js";
import { formatDiagnostics } from "../../compiler/diagnostics/format.js";
import { positionOf } from "../../compiler/diagnostics/line-map.js";
import { parseFile, type ParsedFile } from "../../compiler/parse/parse-file.js";
import { compileSources } from "../../compiler/program/compile.js";
import { dedent, describe as where } from "./helpers.js";

function parse(text: string): ParsedFile {
  return parseFile({ path: "main.wow", text: dedent(text) });
}

/** Each syntax diagnostic as `CODE line:col`. */
function syntax(text: string): string[] {
  return parse(text).diagnostics.map((d) => where(d));
}

/** Each syntax diagnostic as `CODE line:col message | hint`. */
function explained(text: string): string[] {
  return parse(text).diagnostics.map((d: Diagnostic) => `${where(d)} ${d.message} | ${d.hint ?? ""}`);
}

describe("keywords as enum members", () => {
  it("accepts members named like keywords, one per line", () => {
    const { ast, diagnostics } = parse(`
      context shop
      enum Switch {
        on
        off
      }
      enum Trigger {
        state
        command
        event
        type
        job
      }
    `);
    expect(diagnostics).toEqual([]);
    expect(ast.declarations.map((d) => (d.kind === "Enum" ? d.members.map((m) => m.name.text) : []))).toEqual([
      ["on", "off"],
      ["state", "command", "event", "type", "job"],
    ]);
  });

  it("still ends an enum left open at the next declaration", () => {
    expect(syntax(`
      context shop
      enum Switch {
        on
        off
      }
      enum E { A, B
      aggregate X {}
    `)).toEqual(["WOW1006 7:1"]);
  });
});

describe("errors near each other", () => {
  it("reports a missing ':' on each of two lines", () => {
    expect(syntax(`
      context shop
      type T {
        a int
        b int
      }
    `)).toEqual(["WOW1002 3:5", "WOW1002 4:5"]);
    expect(syntax(`
      context shop
      type T {
        a int,
        b int
      }
    `)).toEqual(["WOW1002 3:5", "WOW1002 4:5"]);
  });
});

describe("a mistyped keyword before a block", () => {
  it("is one error, and the declarations after it are kept", () => {
    const { ast, diagnostics } = parse(`
      context shop
      agregate A { state { x: int } command C {} }
      type T { y: string }
    `);
    expect(diagnostics.map((d) => where(d))).toEqual(["WOW1002 2:1"]);
    expect(ast.declarations.map((d) => d.name.text)).toEqual(["T"]);
  });

  it("takes the annotations written before it along: they do not land on the next declaration", () => {
    const { diagnostics } = compileSources([{ path: "main.wow", text: dedent(`
      context shop
      @Blocking @Doc(text = "x")
      agregate A { }
      type T { y: string }
    `) }], { manifest: false });
    expect(diagnostics.map((d) => where(d))).toEqual(["WOW1002 3:1"]);
  });

  it("inside an aggregate is one error, and the members after it are kept", () => {
    const { ast, diagnostics } = parse(`
      context shop
      aggregate A {
        comand C { x: int }
        event E {}
      }
    `);
    expect(diagnostics.map((d) => where(d))).toEqual(["WOW1002 3:3"]);
    const aggregate = ast.declarations[0]!;
    expect(aggregate.kind === "Aggregate" && aggregate.members.map((m) => m.kind)).toEqual(["Event"]);
  });
});

describe("separators after a recovered error", () => {
  it("does not report a missing ',' where the ',' is written", () => {
    expect(syntax(`
      context shop
      saga S {
        on C(s: Svc[], t: Svc)
      }
    `)).toEqual(["WOW1002 3:14"]);
    expect(syntax(`
      context shop
      enum E { A = 1, B = 2 }
    `)).toEqual(["WOW1007 2:12", "WOW1007 2:19"]);
  });
});

describe("hints that say what to write", () => {
  it("names the allowed forms of a type for `int?[]` and `int[][]`", () => {
    for (const type of ["int?[]", "int[][]"]) {
      const [only, ...rest] = explained(`
        context shop
        type T { a: ${type} }
      `);
      expect(rest).toEqual([]);
      expect(only).toMatch(/^WOW1002 2:1[78] Unexpected '\[': expected the end of the field's type\. \| /);
      expect(only).toContain("`T`, `T[]` (an array), `T?` (optional) or `T[]?` (an optional array)");
      expect(only).toContain("arrays do not nest");
    }
  });

  it("tells to write a string between double quotes, once per string", () => {
    expect(explained(`
      context shop
      @A(x = 'tick', y = “tock”)
      type T {}
    `)).toEqual([
      "WOW1002 2:8 Unexpected string 'tick': expected a string between double quotes. | Write \"tick\": strings are written between straight double quotes '\"'.",
      "WOW1002 2:20 Unexpected string “tock”: expected a string between double quotes. | Write \"tock\": strings are written between straight double quotes '\"'.",
    ]);
    const { ast } = parse(`
      context shop
      @A(x = 'tick')
      type T {}
    `);
    const value = ast.declarations[0]!.annotations[0]!.args[0]!.value;
    expect(value.kind === "String" && value.value).toBe("tick");
  });

  it("says what a context name may be", () => {
    expect(explained(`
      context eshop.order
      type T {}
    `)).toEqual([
      "WOW1002 1:14 Unexpected '.': expected a new line after the context's name. | A context name is one name, lower-case words joined by '-' (`context eshop-order`), without '.'.",
    ]);
  });

  it("reports a missing context name at the declaration that follows `context`", () => {
    const [only, ...rest] = explained(`
      context
      type T {}
    `);
    expect(rest).toEqual([]);
    expect(only).toMatch(/^WOW1007 2:1 Unexpected 'type': expected a context name after `context` \(e\.g\. `context eshop-order`\)\./);
    expect(parse("context type\nservice S").diagnostics).toEqual([]);
  });
});

describe("a service parameter written as an array or optional", () => {
  it.each(["Svc[]", "Svc?"])("`s: %s` says a parameter is one service", (type) => {
    const hints = explained(`
      context shop
      service Svc
      aggregate A {
        @CreateAggregate
        command C {}
        event E {}
        @OnCommand(produces = [E])
        on C(s: ${type}, t: Svc)
      }
    `);
    expect(hints).toHaveLength(1);
    expect(hints[0]).toMatch(/^WOW1002 8:\d+ .*\| A handler's parameter is one service, `name: Service`/);
  });
});

describe("did you mean, for a mistyped keyword", () => {
  it("suggests the keyword allowed where the word stands", () => {
    const hintOf = (text: string): string[] => parse(text).diagnostics.map((d) => `${where(d)} ${d.hint ?? ""}`);
    expect(hintOf("context shop\nagregate A {}")).toEqual(["WOW1002 2:1 Did you mean 'aggregate'? 'agregate' is not a keyword; it was skipped with its block."]);
    expect(hintOf("context shop\nsage S {}")).toEqual(["WOW1002 2:1 Did you mean 'saga'? 'sage' is not a keyword; it was skipped with its block."]);
    expect(hintOf("context shop\nservise S")[0]).toBe("WOW1002 2:1 Did you mean 'service'?");
    expect(hintOf("context shop\naggregate A {\n  comand C {}\n}")).toEqual(["WOW1002 3:3 Did you mean 'command'? 'comand' is not a keyword; it was skipped with its block."]);
    expect(hintOf("context shop\naggregate A {\n  evnt E\n}")[0]).toBe("WOW1002 3:3 Did you mean 'event'?");
    expect(hintOf("context shop\nsaga S {\n  jb tick\n}")[0]).toBe("WOW1002 3:3 Did you mean 'job'?");
  });
});

describe("a byte order mark", () => {
  it("takes no column on line 1", () => {
    const text = "\uFEFFcontext shop type T { a int }\n";
    const { diagnostics } = parseFile({ path: "main.wow", text });
    expect(diagnostics.map((d) => where(d))).toEqual(["WOW1002 1:25"]);
    expect(positionOf({ path: "main.wow", text }, 0)).toEqual({ line: 1, column: 1 });
    const frame = formatDiagnostics(diagnostics, { color: false });
    expect(frame).toContain("main.wow:1:25");
    expect(frame).toContain("1 context shop type T { a int }\n                          ~~~");
  });
});

describe("a syntax error with nothing more to advise", () => {
  it("has no hint, rather than an empty one (JSON shows null, text shows no hint line)", () => {
    const [error, ...rest] = parse(`
      context shop
      aggregate A { state { x: int } = }
    `).diagnostics;
    expect(rest).toEqual([]);
    expect(error!.code).toBe("WOW1002");
    expect(error).not.toHaveProperty("hint");
  });
});
