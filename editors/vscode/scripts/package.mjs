// Packages the VS Code extension as a .vsix, offline: type-checks and bundles src/extension.ts with
// its one dependency (vscode-languageclient, from editors/vscode/node_modules) into one file with
// esbuild, stages it with the manifest, the language configuration, the README and the repository's
// TextMate grammar (grammar/wow.tmLanguage.json) in a temporary directory, and runs `vsce package
// --no-dependencies` there (nothing is fetched). Writes nothing into the tree but the .vsix.
//   node editors/vscode/scripts/package.mjs [--out <file.vsix>]   (npm run package:vscode)
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const extension = fileURLToPath(new URL("..", import.meta.url));
const repo = resolve(extension, "../..");
const manifest = JSON.parse(readFileSync(join(extension, "package.json"), "utf8"));
const outIndex = process.argv.indexOf("--out");
const out = resolve(outIndex >= 0 ? process.argv[outIndex + 1] : join(extension, `${manifest.name}-${manifest.version}.vsix`));

const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ["ignore", "inherit", "inherit"] });

// The extension's own dependencies, from the npm cache when they are there (its lock file pins them).
if (!existsSync(join(extension, "node_modules", "vscode-languageclient"))) {
  run(process.platform === "win32" ? "npm.cmd" : "npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], extension);
}
run(process.execPath, [join(repo, "node_modules/typescript/bin/tsc"), "-p", join(extension, "tsconfig.json")], extension);

const stage = mkdtempSync(join(tmpdir(), "wowc-vsix-"));
try {
  const { build } = await import("esbuild");
  await build({
    entryPoints: [join(extension, "src/extension.ts")],
    outfile: join(stage, "dist/extension.js"),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    minify: true,
    logLevel: "warning",
  });
  for (const file of ["package.json", "language-configuration.json", "README.md"]) cpSync(join(extension, file), join(stage, file));
  mkdirSync(join(stage, "syntaxes"));
  cpSync(join(repo, "grammar/wow.tmLanguage.json"), join(stage, "syntaxes/wow.tmLanguage.json"));
  mkdirSync(dirname(out), { recursive: true });
  run(process.execPath, [join(repo, "node_modules/@vscode/vsce/vsce"), "package", "--no-dependencies", "--allow-missing-repository", "--skip-license", "--out", out], stage);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
