import { describe, expect, it } from "vitest";
import { camelCase } from "../../compiler/case.js";
import { environmentSegment as screamingSnake } from "../../runtime/config/config-keys.js";
import { docComment, identifier, jsonLiteral, methodKey, propertyKey, stringLiteral } from "../../compiler/emit/escape.js";

describe("escaping helpers", () => {
  it("identifiers: reserved words and non-identifiers get a `$`, others stay", () => {
    expect(identifier("productId")).toBe("productId");
    expect(identifier("class")).toBe("class$");
    expect(identifier("default")).toBe("default$");
    expect(identifier("new")).toBe("new$");
    expect(identifier("delete")).toBe("delete$");
    expect(identifier("string")).toBe("string$");
    expect(identifier("order-id")).toBe("order$id");
    expect(identifier("9lives")).toBe("$9lives");
    expect(identifier("é-x")).toBe("$e9$$x");
  });

  it("identifiers are one to one on `.wow` names (which hold no `$`): names that differ give identifiers that differ", () => {
    // `a-b-c` and `a_b-c` once both became `a_b_c$`: two factory parameters of one name.
    const names = ["a-b-c", "a_b-c", "a-b_c", "a_b_c", "class", "class_", "order-id", "order_id", "orderid", "_9", "new", "new-x", "new_x"];
    expect(new Set(names.map(identifier)).size).toBe(names.length);
  });

  it("method keys: `new` quoted (a construct signature otherwise), the rest as property keys", () => {
    expect(methodKey("new")).toBe('"new"');
    expect(methodKey("constructor")).toBe("constructor");
    expect(methodKey("a-b")).toBe('"a-b"');
  });

  it("property keys: identifier names (reserved words too) bare, the rest quoted", () => {
    expect(propertyKey("class")).toBe("class");
    expect(propertyKey("eshop-order.OrderPaid")).toBe('"eshop-order.OrderPaid"');
  });

  it("string literals cannot be ended or interpolated", () => {
    const hostile = 'a"b\\c`${x}`\n\r\u2028\u2029\u0000é😀';
    const literal = stringLiteral(hostile);
    expect(literal).toBe('"a\\"b\\\\c`${x}`\\n\\r\\u2028\\u2029\\u0000\\u00e9\\u{1f600}"');
    expect(eval(literal)).toBe(hostile);
  });

  it("JSON literals hold exactly their data: a __proto__ key stays a property, strings cannot end early, only ASCII", () => {
    const data = JSON.parse('{"__proto__":{"a":1},"k\\"__proto__":"v","s":"{\\"__proto__\\":1} \\u2028 é 😀 */","n":[1,-2.5,true,null]}') as object;
    const literal = jsonLiteral(data);
    expect(literal).toMatch(/^[\x20-\x7e]*$/);
    expect(literal.startsWith('{["__proto__"]:')).toBe(true);
    const back = eval(`(${literal})`) as object;
    expect(Object.hasOwn(back, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(JSON.stringify(back)).toBe(JSON.stringify(data));
  });

  it("doc comments cannot be closed early and keep their lines", () => {
    expect(docComment(undefined)).toBe("");
    expect(docComment("one line")).toBe("/** one line */\n");
    expect(docComment("  kept\tindent, end trimmed \t ", "    ")).toBe("    /**   kept\tindent, end trimmed */\n");
    expect(docComment("a * b */ c")).toBe("/** a * b *\u2215 c */\n");
    expect(docComment("bell\u0007 and\u001f")).toBe("/** bell  and */\n");
    expect(docComment("one\rtwo")).toBe("/**\n * one\n * two\n */\n");
    expect(docComment("\n\nlate\n\n")).toBe("/** late */\n");
    const doc = docComment("first */ evil()\nsecond\u2028third", "  ");
    expect(doc).toBe("  /**\n   * first *\u2215 evil()\n   * second\n   * third\n   */\n");
    expect(doc.slice(5, -4)).not.toContain("*/");
  });

  it("case conversions", () => {
    expect(camelCase("eshop-order")).toBe("eshopOrder");
    expect(screamingSnake("receive-deliveries")).toBe("RECEIVE_DELIVERIES");
    expect(screamingSnake("poll-interval")).toBe("POLL_INTERVAL");
  });
});
