// The handlebars templates of templates/ (one per kind of generated file), compiled once per
// process with `noEscape`: the view models hold only escaped fragments (see escape.ts), so the
// templates interpolate them as they are.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type HandlebarsModule from "handlebars";

type CompileOptions = NonNullable<Parameters<typeof HandlebarsModule.compile>[1]>;

export type TemplateName = "sdk" | "types" | "aggregate" | "saga" | "context-index" | "index" | "config";

const compiled = new Map<TemplateName, HandlebarsTemplateDelegate>();
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
    if (existsSync(new URL("aggregate.ts.hbs", candidate))) return (directory = candidate);
    dir = new URL("../", dir);
  }
  throw new Error("the templates/ folder of wowc was not found");
}

/**
 * `strict`: a missing field of a view is an error, not an empty string. The templates use only the
 * built-in `each`/`if`/`unless` and no `@data`, so helpers are called directly and no data frames are made.
 */
const COMPILE_OPTIONS: CompileOptions = {
  noEscape: true,
  strict: true,
  data: false,
  knownHelpersOnly: true,
  knownHelpers: { each: true, if: true, unless: true },
};

export function render(name: TemplateName, view: object): string {
  let template = compiled.get(name);
  if (template === undefined) {
    const text = readFileSync(new URL(`${name}.ts.hbs`, templatesDirectory()), "utf8");
    template = loadHandlebars().compile(text, COMPILE_OPTIONS);
    compiled.set(name, template);
  }
  return template(view);
}
