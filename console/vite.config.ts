// The operator console's bundle: Preact pages built by Vite into dist/console (index.html, one script,
// one stylesheet, a manifest the host finds the folder by). Relative URLs: the host serves it under
// any path (`wow.http.console.path`). Nothing is fetched from elsewhere at run time.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  logLevel: "warn",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("../dist/console", import.meta.url)),
    emptyOutDir: true,
    manifest: "manifest.json",
    // No inline data: URLs in the script (the host's Content-Security-Policy allows files of its own).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: "es2022",
    reportCompressedSize: false,
  },
});
