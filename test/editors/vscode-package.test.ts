// The VS Code extension packaged as a .vsix by `npm run package:vscode` (editors/vscode/scripts/
// package.mjs), with no network: the archive's manifest and contents, read with a small zip reader.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inflateRawSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../", import.meta.url));

/** The files of a zip archive by name: its central directory, each entry stored or deflated. */
function readZip(zip: Buffer): Map<string, Buffer> {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error("not a zip archive: no end of central directory");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + nameLength + extra + comment;
  }
  return files;
}

let files: Map<string, Buffer>;

beforeAll(() => {
  const out = join(mkdtempSync(join(tmpdir(), "wowc-vsix-test-")), "wow.vsix");
  // No network: npm and vsce are told to stay offline (the extension's dependency comes from its node_modules or the npm cache).
  execFileSync(process.execPath, [join(repo, "editors/vscode/scripts/package.mjs"), "--out", out], { cwd: repo, stdio: "pipe", env: { ...process.env, npm_config_offline: "true" } });
  files = readZip(readFileSync(out));
}, 120_000);

describe("the VS Code extension's .vsix", () => {
  it("holds the bundled client, the manifest, the language configuration, the README and the grammar, and nothing else", () => {
    expect([...files.keys()].sort()).toEqual([
      "[Content_Types].xml",
      "extension.vsixmanifest",
      "extension/dist/extension.js",
      "extension/language-configuration.json",
      "extension/package.json",
      "extension/readme.md",
      "extension/syntaxes/wow.tmLanguage.json",
    ]);
  });

  it("declares the language, its grammar and configuration, the schema of wow.config.json, and activates on .wow files", () => {
    const manifest = JSON.parse(files.get("extension/package.json")!.toString("utf8"));
    expect(manifest).toMatchObject({ name: "wow-language", publisher: "wowc", main: "./dist/extension.js", activationEvents: ["workspaceContains:**/*.wow"] });
    expect(manifest.contributes.languages).toEqual([{ id: "wow", aliases: ["wow", "Wow"], extensions: [".wow"], configuration: "./language-configuration.json" }]);
    expect(manifest.contributes.grammars).toEqual([{ language: "wow", scopeName: "source.wow", path: "./syntaxes/wow.tmLanguage.json" }]);
    expect(manifest.contributes.jsonValidation).toEqual([{ fileMatch: "wow.config.json", url: "wowc-schema://schema/wow.config.schema.json" }]);
    const vsix = files.get("extension.vsixmanifest")!.toString("utf8");
    expect(vsix).toContain('<Identity Language="en-US" Id="wow-language" Version="0.1.0" Publisher="wowc"');
    expect(vsix).toContain('<Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json"');
  });

  it("ships the repository's grammar and language configuration unchanged", () => {
    expect(files.get("extension/syntaxes/wow.tmLanguage.json")!.equals(readFileSync(join(repo, "grammar/wow.tmLanguage.json")))).toBe(true);
    const configuration = JSON.parse(files.get("extension/language-configuration.json")!.toString("utf8"));
    expect(configuration.comments).toEqual({ lineComment: "//", blockComment: ["/*", "*/"] });
    expect(configuration.brackets).toEqual([["{", "}"], ["[", "]"], ["(", ")"]]);
  });

  it("bundles the language client, so that the extension needs only VS Code", () => {
    const client = files.get("extension/dist/extension.js")!.toString("utf8");
    expect(client).toContain('require("vscode")');
    expect(client).not.toMatch(/require\("vscode-languageclient/);
    // It starts `node <wowc>/dist/compiler/cli/main.js lsp` over stdio, found in the workspace's node_modules.
    expect(client).toContain('"node_modules","wowc","dist","compiler","cli","main.js"');
    expect(client).toContain('"lsp"');
  });
});
