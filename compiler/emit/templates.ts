// The handlebars templates of templates/ (one per kind of generated file), compiled once per
// process (template-compiler.ts) with `noEscape`: the view models hold only escaped fragments (see
// escape.ts), so the templates interpolate them as they are.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type HandlebarsModule from "handlebars";
import { packageFile } from "../package-root.js";
import { compileTemplate } from "./template-compiler.js";

export type TemplateName = "sdk" | "types" | "aggregates" | "sagas" | "context-index" | "index" | "config" | "client";

const compiled = new Map<TemplateName, (view: object) => string>();
let handlebars: typeof HandlebarsModule | undefined;

/** Loaded on first use, so that `wowc check` never pays for it. */
function loadHandlebars(): typeof HandlebarsModule {
  return (handlebars ??= createRequire(import.meta.url)("handlebars") as typeof HandlebarsModule);
}

export function render(name: TemplateName, view: object): string {
  let template = compiled.get(name);
  if (template === undefined) {
    const text = readFileSync(packageFile(`templates/${name}.ts.hbs`), "utf8");
    template = compileTemplate(loadHandlebars(), text, name);
    compiled.set(name, template);
  }
  return template(view);
}
