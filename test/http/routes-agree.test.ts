// The runtime derives command routes from registrations; the compiler writes them into the
// manifest. Both must give the same routes for the example.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { commandRoute } from "../../compiler/manifest/routes.js";
import { commandRoutes, type AggregateRegistration } from "../../runtime/index.js";

interface ManifestCommand {
  readonly create: boolean;
  readonly delete: boolean;
  readonly qualifiedName: string;
  readonly route: { readonly method: string; readonly path: string };
}

const manifest = JSON.parse(readFileSync("test/compiler/golden/eshop/wow-manifest.json", "utf8")) as {
  contexts: Record<string, { aggregates: Record<string, { commands: Record<string, ManifestCommand> }> }>;
};

it("runtime routes equal the example manifest's routes (and the compiler's route function)", () => {
  const registrations: AggregateRegistration[] = [];
  const expected: { method: string; path: string; type: string }[] = [];
  for (const [context, c] of Object.entries(manifest.contexts)) {
    for (const [aggregate, a] of Object.entries(c.aggregates)) {
      const commands: Record<string, AggregateRegistration["commands"][string]> = {};
      for (const [name, command] of Object.entries(a.commands)) {
        commands[command.qualifiedName] = { create: command.create, delete: command.delete, decide: () => ({ kind: "noop" }) };
        expected.push({ method: command.route.method, path: command.route.path, type: command.qualifiedName });
        expect(commandRoute(context, aggregate, name, command)).toEqual(command.route);
      }
      registrations.push({ context, aggregate, initialState: () => ({}), commands, events: {} });
    }
  }
  const actual = commandRoutes(registrations).map(({ method, path, type }) => ({ method, path, type }));
  const byPath = (x: { path: string }, y: { path: string }) => (x.path < y.path ? -1 : 1);
  expect(actual.sort(byPath)).toEqual(expected.sort(byPath));
  expect(actual.length).toBeGreaterThan(5);
});
