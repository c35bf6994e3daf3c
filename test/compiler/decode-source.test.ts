// Sources are read as UTF-8; a file that is not (saved as Latin-1, say) is compiled with U+FFFD in
// place of its bad bytes and reported (WOW6004) at the first of them, in UTF-16 offsets of the text.
import { describe, expect, it } from "vitest";
import { decodeSource } from "../../compiler/program/sources.js";

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));

/** Where WOW6004 points (an offset into the decoded text) and the byte it names, or "valid". */
function verdict(input: Buffer): string {
  const { file, invalid } = decodeSource("a.wow", input);
  if (invalid === undefined) return "valid";
  expect(file.text[invalid.loc!.start]).toBe("\uFFFD");
  return `${invalid.loc!.start} ${/the byte (0x[0-9A-F]{2})/.exec(invalid.message)![1]}`;
}

describe("decodeSource", () => {
  it("accepts UTF-8: ASCII, 2-, 3- and 4-byte characters, a byte order mark, and U+FFFD written as UTF-8", () => {
    expect(verdict(bytes("context café ✓ 😀 \uFFFD"))).toBe("valid");
    expect(verdict(bytes([0xef, 0xbb, 0xbf], "context x"))).toBe("valid");
    expect(decodeSource("a.wow", bytes("x 😀")).file.text).toBe("x 😀");
  });

  it("points at the first byte that does not start a complete character", () => {
    expect(verdict(bytes("ab", [0xe9], "cd"))).toBe("2 0xE9"); // Latin-1 é
    expect(verdict(bytes("ab", [0x80]))).toBe("2 0x80"); // a lone continuation byte
    expect(verdict(bytes("a", [0xc0, 0x80]))).toBe("1 0xC0"); // an overlong form
    expect(verdict(bytes("a", [0xed, 0xa0, 0x80]))).toBe("1 0xED"); // a surrogate
    expect(verdict(bytes("a", [0xf4, 0x90, 0x80, 0x80]))).toBe("1 0xF4"); // above U+10FFFF
    expect(verdict(bytes("a", [0xf5, 0x80]))).toBe("1 0xF5");
    expect(verdict(bytes("a", [0xe2, 0x82]))).toBe("1 0xE2"); // cut at the end of the file
    expect(verdict(bytes("é", [0xe9], "x", [0xe9]))).toBe("1 0xE9"); // the first of two
  });

  it("counts the offset in UTF-16 code units, as the rest of the compiler does", () => {
    expect(verdict(bytes("😀é", [0x93]))).toBe("3 0x93"); // 😀 is two code units, é one
  });
});
