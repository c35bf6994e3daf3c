// The templates of templates/ (one per kind of generated file), compiled once per process
// (template-compiler.ts) with no escaping: the view models hold only escaped fragments (see
// escape.ts), so the templates interpolate them as they are.
import { readFileSync } from "node:fs";
import { packageFile } from "../package-root.js";
import { compileTemplate } from "./template-compiler.js";

export type TemplateName = "sdk" | "types" | "aggregates" | "sagas" | "context-index" | "index" | "config" | "client";

const compiled = new Map<TemplateName, (view: object) => string>();

export function render(name: TemplateName, view: object): string {
  let template = compiled.get(name);
  if (template === undefined) {
    template = compileTemplate(readFileSync(packageFile(`templates/${name}.ts.hbs`), "utf8"), name);
    compiled.set(name, template);
  }
  return template(view);
}
