// The canonical layout, one function per grammar rule, over the CST of an error-free file. Source
// commas are dropped and re-added by the layout; every other token is written once, in order, so
// the formatter cannot change what a file means (format-text.ts checks that it did not).
//
// Layout: two spaces of indentation; one declaration, member, annotation or (in a multi-line block)
// field per line; `{ a: T, b: U }` stays on one line when it was written on one line and holds no
// comment; argument, parameter and list parentheses stay on one line unless a comment is inside,
// except an annotation longer than the print width: one argument per line, and a list argument that
// is still too long, one item per line.
import type { IToken } from "chevrotain";
import type { Emitter } from "./emitter.js";
import { node as sub } from "../parse/cst-access.js";
import { childAt, childNodes, isToken, type CstNode } from "../../grammar/cst.js";

function tok(node: CstNode, key: string, index = 0): IToken | undefined {
  const element = childAt(node, key, index);
  return element !== undefined && isToken(element) ? element : undefined;
}

/** The default print width: the column an annotation's arguments are wrapped at. */
export const DEFAULT_PRINT_WIDTH = 100;

const INDENT_WIDTH = 2;

export class CstPrinter {
  constructor(
    private readonly out: Emitter,
    private readonly text: string,
    private readonly printWidth = DEFAULT_PRINT_WIDTH,
  ) {}

  file(node: CstNode): void {
    let previousIsBlock = false;
    for (const child of childNodes(node)) {
      // Aggregates and sagas stand apart: a blank line before and after each.
      const isBlock = child.name === "declaration" && childNodes(child).some((c) => c.name === "aggregateDeclaration" || c.name === "sagaDeclaration");
      if (previousIsBlock || isBlock) this.out.blankLine();
      previousIsBlock = isBlock;
      this.out.newline();
      if (child.name === "contextClause") {
        this.out.token(tok(child, "Context")!, false);
        this.out.token(tok(child, "Name")!, true);
        this.out.blankLine();
      } else {
        this.declaration(child);
      }
    }
  }

  /** A declaration or a member: its annotations, one per line, then the declaration itself. */
  private declaration(node: CstNode): void {
    for (const child of childNodes(node)) {
      this.out.newline();
      if (child.name === "annotation") this.annotation(child);
      else this.construct(child);
    }
  }

  private construct(node: CstNode): void {
    switch (node.name) {
      case "typeDeclaration":
      case "commandDeclaration":
      case "eventDeclaration": {
        this.keywordAndName(node, node.name === "typeDeclaration" ? "Type" : node.name === "commandDeclaration" ? "Command" : "Event");
        const block = sub(node, "fieldBlock");
        if (block !== undefined) this.fieldBlock(block);
        return;
      }
      case "serviceDeclaration":
        return this.keywordAndName(node, "Service");
      case "stateBlock":
        this.out.token(tok(node, "State")!, false);
        return this.fieldBlock(sub(node, "fieldBlock")!);
      case "enumDeclaration":
        this.keywordAndName(node, "Enum");
        return this.block(node, childNodes(node, "enumMember"), (member) => this.out.token(tok(member, "Name")!, true), ",", true);
      case "aggregateDeclaration":
      case "sagaDeclaration":
        this.keywordAndName(node, node.name === "aggregateDeclaration" ? "Aggregate" : "Saga");
        return this.block(node, childNodes(node, "member"), (member) => this.declaration(member), "", false);
      case "handlerDeclaration": {
        this.out.token(tok(node, "On")!, false);
        this.qualifiedName(sub(node, "qualifiedName")!, true);
        const params = sub(node, "parameterList");
        if (params !== undefined) this.parameterList(params);
        return;
      }
      case "jobDeclaration": {
        this.keywordAndName(node, "Job");
        const params = sub(node, "parameterList");
        if (params !== undefined) this.parameterList(params);
        return;
      }
      default:
        throw new Error(`fmt: no layout for the grammar rule '${node.name}'`);
    }
  }

  private keywordAndName(node: CstNode, keyword: string): void {
    this.out.token(tok(node, keyword)!, false);
    this.out.token(tok(node, "Name")!, true);
  }

  private fieldBlock(node: CstNode): void {
    this.block(node, childNodes(node, "field"), (field) => this.field(field), "", true);
  }

  /**
   * `{ items }`: `{}` when empty, on one line when it was (and `inline` allows it and no comment is
   * inside), else one item per line with `separator` between items.
   */
  private block(node: CstNode, items: CstNode[], print: (item: CstNode) => void, separator: string, inline: boolean): void {
    const open = tok(node, "LCurly")!;
    const close = tok(node, "RCurly")!;
    const commented = this.out.hasCommentIn(open.startOffset, close.startOffset);
    this.out.token(open, true);
    if (items.length === 0 && !commented) return this.out.closer(close, false);
    const oneLine = inline && !commented && !/[\n\r]/.test(this.text.slice(open.startOffset, close.startOffset));
    if (oneLine) {
      items.forEach((item, index) => {
        if (index > 0) this.out.synthetic(",", false);
        print(item);
      });
      return this.out.closer(close, true);
    }
    this.out.opened();
    this.out.indent();
    items.forEach((item, index) => {
      this.out.newline();
      print(item);
      if (index < items.length - 1) this.out.separator(separator);
    });
    this.out.commentsBefore(close.startOffset);
    this.out.dedent();
    this.out.newline();
    this.out.closer(close, false);
  }

  private field(node: CstNode): void {
    this.out.token(tok(node, "Name")!, true);
    this.out.token(tok(node, "Colon")!, false);
    this.typeRef(sub(node, "typeRef")!);
  }

  private typeRef(node: CstNode): void {
    this.qualifiedName(sub(node, "qualifiedName")!, true);
    for (const key of ["LBracket", "RBracket", "Question"]) {
      const t = tok(node, key);
      if (t !== undefined) this.out.token(t, false);
    }
  }

  private qualifiedName(node: CstNode, space: boolean): void {
    this.out.token(tok(node, "Name")!, space);
    const dot = tok(node, "Dot");
    if (dot !== undefined) {
      this.out.token(dot, false);
      this.out.token(tok(node, "Name", 1)!, false);
    }
  }

  private parameterList(node: CstNode): void {
    this.sequence(node, "LParen", "RParen", childNodes(node, "parameter"), (parameter) => {
      this.out.token(tok(parameter, "Name")!, true);
      this.out.token(tok(parameter, "Colon")!, false);
      this.qualifiedName(sub(parameter, "qualifiedName")!, true);
    });
  }

  private annotation(node: CstNode): void {
    this.out.token(tok(node, "At")!, false);
    this.out.token(tok(node, "Name")!, false);
    if (tok(node, "LParen") === undefined) return;
    const column = this.out.indentation() * INDENT_WIDTH;
    const wrap = column + flatAnnotation(node).length > this.printWidth;
    const argumentColumn = column + INDENT_WIDTH;
    this.sequence(
      node,
      "LParen",
      "RParen",
      childNodes(node, "annotationArgument"),
      (argument) => {
        this.out.token(tok(argument, "Name")!, true);
        this.out.token(tok(argument, "Equals")!, true);
        // A wrapped annotation's argument still too long (with its comma): its list, one item per line.
        const tooLong = wrap && argumentColumn + flatArgument(argument).length + 1 > this.printWidth;
        this.value(sub(argument, "annotationValue")!, tooLong);
      },
      false,
      wrap,
    );
  }

  private value(node: CstNode, wrap = false): void {
    const name = sub(node, "qualifiedName");
    if (name !== undefined) return this.qualifiedName(name, true);
    const list = sub(node, "listValue");
    if (list !== undefined) {
      return this.sequence(list, "LBracket", "RBracket", childNodes(list, "annotationValue"), (item) => this.value(item), true, wrap);
    }
    for (const key of ["StringLiteral", "NumberLiteral", "True", "False"]) {
      const t = tok(node, key);
      if (t !== undefined) return this.out.token(t, true);
    }
  }

  /** `(a, b)` / `[a, b]` right after the previous token, on one line unless a comment is inside (or `wrap`). */
  private sequence(node: CstNode, openKey: string, closeKey: string, items: CstNode[], print: (item: CstNode) => void, spaceBefore = false, wrap = false): void {
    const open = tok(node, openKey)!;
    const close = tok(node, closeKey)!;
    this.out.token(open, spaceBefore);
    this.out.opened();
    if (!(wrap && items.length > 0) && !this.out.hasCommentIn(open.startOffset, close.startOffset)) {
      items.forEach((item, index) => {
        if (index > 0) this.out.synthetic(",", false);
        this.withoutLeadingSpace(index === 0, () => print(item));
      });
      return this.out.closer(close, false);
    }
    this.out.indent();
    items.forEach((item, index) => {
      this.out.newline();
      print(item);
      if (index < items.length - 1) this.out.separator(",");
    });
    this.out.commentsBefore(close.startOffset);
    this.out.dedent();
    this.out.newline();
    this.out.closer(close, false);
  }

  /** The first item after an opener is written without the space its printer asks for. */
  private withoutLeadingSpace(first: boolean, print: () => void): void {
    if (first) this.out.suppressNextSpace();
    print();
  }
}

/** An annotation as one line would show it: `@OnCommand(produces = [A, B], schedules = [C])`. */
function flatAnnotation(node: CstNode): string {
  const args = childNodes(node, "annotationArgument").map(flatArgument);
  return `@${tok(node, "Name")!.image}(${args.join(", ")})`;
}

function flatArgument(node: CstNode): string {
  return `${tok(node, "Name")!.image} = ${flatValue(sub(node, "annotationValue")!)}`;
}

function flatValue(node: CstNode): string {
  const name = sub(node, "qualifiedName");
  if (name !== undefined) {
    const second = tok(name, "Name", 1);
    return second === undefined ? tok(name, "Name")!.image : `${tok(name, "Name")!.image}.${second.image}`;
  }
  const list = sub(node, "listValue");
  if (list !== undefined) return `[${childNodes(list, "annotationValue").map(flatValue).join(", ")}]`;
  for (const key of ["StringLiteral", "NumberLiteral", "True", "False"]) {
    const t = tok(node, key);
    if (t !== undefined) return t.image;
  }
  return "";
}
