// `wowc fmt`: golden pairs, idempotence, every comment kept, manifests unchanged, syntax errors refused.
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatFile, formatText } from "../../compiler/format/format-text.js";
import { compileSources } from "../../compiler/program/compile.js";
import { lexFile } from "../../compiler/parse/parse-file.js";
import { allSources, fixtureNames, fixturesDir, read } from "./helpers.js";
import { textOf } from "../../compiler/emit/emit.js";

describe("golden pairs (refresh with UPDATE_GOLDEN=1)", () => {
  it("has fixtures", () => expect(fixtureNames.length).toBeGreaterThanOrEqual(3));
  it.each(fixtureNames)("%s", (name) => {
    const formatted = formatText(read(`${fixturesDir}${name}.in.wow`), `${name}.in.wow`);
    const golden = `${fixturesDir}${name}.out.wow`;
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(golden, formatted);
    expect(formatted).toBe(read(golden));
  });
});

describe("idempotence: formatting formatted text changes nothing", () => {
  it.each(allSources())("%s", (name, text) => {
    const once = formatText(text, name);
    expect(formatText(once, name)).toBe(once);
  });
});

describe("content: every token and every comment survives", () => {
  it.each(allSources())("%s", (name, text) => {
    const before = lexFile({ path: name, text });
    const after = lexFile({ path: name, text: formatText(text, name) });
    const words = (images: string[]) => images.map((i) => i.split(/\s+/).filter(Boolean).join(" "));
    expect(words(after.comments.map((c) => c.image))).toEqual(words(before.comments.map((c) => c.image)));
    const noCommas = (tokens: typeof before.tokens) => tokens.filter((t) => t.image !== ",").map((t) => t.image);
    expect(noCommas(after.tokens)).toEqual(noCommas(before.tokens));
  });

  it("keeps trailing comments on their line", () => {
    const out = formatText("context c // ctx\nenum E {\n  A, // first\n  B /* second */\n}\n");
    expect(out).toBe("context c // ctx\n\nenum E {\n  A, // first\n  B /* second */\n}\n");
  });

  it("keeps comments before a closing brace inside the block", () => {
    expect(formatText("context c\ntype T {\n  a: int\n  // more later\n}\n")).toBe("context c\n\ntype T {\n  a: int\n  // more later\n}\n");
  });

  it("keeps a byte order mark at the start of the file, and reports a formatted file with one as unchanged", () => {
    const formatted = "\uFEFFcontext c\n\ntype T { a: int }\n";
    expect(formatText("\uFEFFcontext c\ntype   T { a: int }\n")).toBe(formatted);
    const again = formatFile({ path: "bom.wow", text: formatted });
    expect(again.ok && again.changed).toBe(false);
  });
});

/** The manifest without source lines (formatting moves lines; nothing else may change). */
function manifestOf(sources: ReadonlyArray<readonly [string, string]>): unknown {
  const result = compileSources(sources.map(([path, text]) => ({ path, text })));
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return JSON.parse(textOf(result.manifestFile!), (key, value: unknown) => (key === "source" || key === "sources" ? undefined : value));
}

describe("formatting never changes the manifest", () => {
  const fixtures = allSources().filter(([name]) => name.endsWith(".in.wow"));
  it.each(fixtures)("%s", (name, text) => {
    expect(manifestOf([[name, formatText(text, name)]])).toEqual(manifestOf([[name, text]]));
  });

  const examples = allSources().filter(([name]) => name.startsWith("examples/"));
  /** The examples with their layout mangled: no indentation, odd spaces. */
  const mangled = examples.map(([name, text]) => [name, text
    .split("\n")
    .map((line) => line.trimStart())
    .map((line) => (line.startsWith("/") ? line : line.replace(/: /g, ":").replace(/ = /g, "=").replace(/, (?=[^"]*$)/g, " ,  ")))
    .join("\n")] as const);

  it("the examples, mangled, format back to their own text and manifest", () => {
    const formatted = mangled.map(([name, text]) => [name, formatText(text, name)] as const);
    expect(manifestOf(formatted)).toEqual(manifestOf(examples));
    expect(formatted.map(([, text]) => text)).toEqual(examples.map(([, text]) => text));
  });
});

describe("print width", () => {
  const long = 'context c\nsaga S {\n  @OnSchedule(name = "nightly", cron = "0 0 2 * * *", zone = "Europe/Berlin", commands = [Alpha, Beta])\n  job nightly\n}\n';

  it("wraps an annotation longer than 100 columns, one argument per line, and keeps one that fits", () => {
    expect(formatText(long)).toBe(
      'context c\n\nsaga S {\n  @OnSchedule(\n    name = "nightly",\n    cron = "0 0 2 * * *",\n    zone = "Europe/Berlin",\n    commands = [Alpha, Beta]\n  )\n  job nightly\n}\n',
    );
    expect(formatText(long, "c.wow", { printWidth: 120 })).toBe(long.replace("context c\n", "context c\n\n"));
  });

  it("wraps a list argument that is still too long, one item per line, and joins a wrapped annotation that now fits", () => {
    const narrow = formatText(long, "c.wow", { printWidth: 40 });
    expect(narrow).toContain("    commands = [Alpha, Beta]\n");
    const tight = formatText(long, "c.wow", { printWidth: 26 });
    expect(tight).toContain("    commands = [\n      Alpha,\n      Beta\n    ]\n");
    // Idempotent at every width, and back to one line when the width allows it.
    for (const width of [26, 40, 100, 120]) expect(formatText(formatText(long, "c.wow", { printWidth: width }), "c.wow", { printWidth: width })).toBe(formatText(long, "c.wow", { printWidth: width }));
    expect(formatText(tight, "c.wow", { printWidth: 120 })).toBe(formatText(long, "c.wow", { printWidth: 120 }));
  });
});

describe("syntax errors", () => {
  it("refuses to format a file with syntax errors and returns its diagnostics", () => {
    const result = formatFile({ path: "broken.wow", text: "context c\naggregate A {\n  command X { a: }\n" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.diagnostics.map((d) => d.code).every((c) => c.startsWith("WOW1"))).toBe(true);
  });
});
