// The handlebars templates of templates/ (one per kind of generated file), compiled once per
// process (template-compiler.ts) with `noEscape`: the view models hold only escaped fragments (see
// escape.ts), so the templates interpolate them as they are.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type HandlebarsModule from "handlebars";
import { compileTemplate } from "./template-compiler.js";

export type TemplateName = "sdk" | "types" | "aggregates" | "sagas" | "context-index" | "index" | "config";

const compiled = new Map<TemplateName, (view: object) => string>();
let handlebars: typeof HandlebarsModule | undefined;

/** Loaded on first use, so that `wowc check` never pays for it. */
function loadHandlebars(): typeof HandlebarsModule {
  return (handlebars ??= createRequire(import.meta.url)("handlebars") as typeof HandlebarsModule);
}
let directory: URL | undefined;

/** templates/ next to compiler/ (sources) or above dist/compiler/ (the published package). */
function templatesDirectory(): URL {
  if (directory !== undefined) return directory;
  let dir = new URL("../../", import.meta.url);
  for (let depth = 0; depth < 4; depth++) {
    const candidate = new URL("templates/", dir);
    if (existsSync(new URL("aggregates.ts.hbs", candidate))) return (directory = candidate);
    dir = new URL("../", dir);
  }
  throw new Error("the templates/ folder of wowc was not found");
}

export function render(name: TemplateName, view: object): string {
  let template = compiled.get(name);
  if (template === undefined) {
    const text = readFileSync(new URL(`${name}.ts.hbs`, templatesDirectory()), "utf8");
    template = compileTemplate(loadHandlebars(), text, name);
    compiled.set(name, template);
  }
  return template(view);
}
