import { describe, expect, it } from "vitest";
import type { AggregateDeclaration, EnumDeclaration, SagaDeclaration, TypeDeclaration } from "../../compiler/ast.js";
import { docText } from "../../compiler/parse/comments.js";
import { parse } from "./helpers.js";

describe("comments and docs", () => {
  const text = `/** The ordering context. */
context c // trailing

/**
 * A value object.
 *   Indented line kept.
 */
type T {
  /** The id. */
  id: string
  // not a doc
  other: int
}

/** Colours. */
enum E {
  /** Red. */ RED, GREEN
}

/* plain block */
/** The aggregate. */
@Tag
aggregate A {
  /** Its state. */
  state { x: int }
  /** Creates it. */
  @CreateAggregate
  command C
  @OnCommand
  /** After the annotation. */
  on C
}

saga S {
  /** Nightly. */
  @OnSchedule(name = "n", cron = "0 0 0 * * *")
  job nightly
}
/** dangling */`;
  const { ast, diagnostics } = parse(text);

  it("parses without diagnostics", () => {
    expect(diagnostics).toEqual([]);
  });

  it("attach to the next context clause, declaration, field, member, handler and job", () => {
    expect(ast.context?.doc).toBe("The ordering context.");
    const type = ast.declarations[0] as TypeDeclaration;
    expect(type.doc).toBe("A value object.\n  Indented line kept.");
    expect(type.fields.map((f) => f.doc)).toEqual(["The id.", undefined]);
    const enumeration = ast.declarations[1] as EnumDeclaration;
    expect(enumeration.doc).toBe("Colours.");
    expect(enumeration.members.map((m) => m.doc)).toEqual(["Red.", undefined]);
    const aggregate = ast.declarations[2] as AggregateDeclaration;
    expect(aggregate.doc).toBe("The aggregate.");
    expect(aggregate.annotations.map((a) => a.name.text)).toEqual(["Tag"]);
    expect(aggregate.members.map((m) => m.doc)).toEqual(["Its state.", "Creates it.", "After the annotation."]);
    const saga = ast.declarations[3] as SagaDeclaration;
    expect(saga.doc).toBeUndefined();
    expect(saga.members[0]!.doc).toBe("Nightly.");
  });

  it("keeps every comment in order, raw, with its kind and span", () => {
    expect(ast.comments.map((c) => c.kind)).toEqual(["Doc", "Line", "Doc", "Doc", "Line", "Doc", "Doc", "Block", "Doc", "Doc", "Doc", "Doc", "Doc", "Doc"]);
    for (const comment of ast.comments) expect(text.slice(comment.loc.start, comment.loc.end)).toBe(comment.text);
    expect(ast.comments[1]!.text).toBe("// trailing");
  });

  it("a doc's text loses its delimiters, the white space around one line, and the stars and shared margin of several", () => {
    expect(docText("/**  Pays\tthe  order.\t */")).toBe("Pays\tthe  order.");
    expect(docText("/***/")).toBe("");
    expect(docText("/**   */")).toBe("");
    expect(docText("/**\u00a0Non-breaking\u00a0*/")).toBe("Non-breaking");
    expect(docText("/**\n   * First.\n   *   Indented.\n   */")).toBe("First.\n  Indented.");
    expect(docText("/** First.\r\n    second\r\n    third */")).toBe("First.\nsecond\nthird");
    expect(docText("/**\n\n * Kept.\n\n */")).toBe("Kept.");
  });

  it("`/**/` is an empty block comment, not a doc", () => {
    const { ast: small } = parse("context c\n/**/ service S");
    expect(small.comments.map((c) => c.kind)).toEqual(["Block"]);
    expect(small.declarations[0]!.doc).toBeUndefined();
  });
});
