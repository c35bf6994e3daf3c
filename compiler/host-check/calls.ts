// The `schedule(…)` and `command(…)` calls a handler makes — in its body, in the functions nested in
// it, and in the project's functions it calls — each with the command type(s) of its command
// argument, read by the type checker (factories, variables and helpers alike; casts looked through).
import { Node, SyntaxKind, type CallExpression, type Expression, type Type } from "ts-morph";
import type { HandlerKind } from "./declarations.js";
import { functionOf, type HandlerFunction } from "./implementations.js";
import { declarationsOf, isUnder, stripCasts } from "./syntax.js";

export type SendMethod = "schedule" | "command";

export interface CommandCall {
  readonly call: CallExpression;
  readonly method: SendMethod;
  /** The command argument (with its casts), where a diagnostic points. */
  readonly argument: Node;
  /** The `type` literals the argument may have, or the text of a type that has none. */
  readonly types: readonly string[] | { readonly undetermined: string };
}

/** The generated context interfaces, with the position of the command argument of each method. */
const commandArgument: Readonly<Record<string, Partial<Record<SendMethod, number>>>> = {
  DecideScope: { schedule: 2 },
  SagaContext: { command: 1, schedule: 3 },
  JobContext: { command: 1 },
};

const interfaceOfKind: Readonly<Record<HandlerKind, string>> = { aggregate: "DecideScope", "saga-event": "SagaContext", job: "JobContext" };
/** Where the scope (aggregates) or context (sagas, jobs) is among a handler's parameters. */
const contextParameter: Readonly<Record<HandlerKind, number>> = { aggregate: 2, "saga-event": 1, job: 1 };

/** How deep to follow calls into the project's helper functions. */
const MAX_DEPTH = 4;

export function commandCalls(fn: HandlerFunction, kind: HandlerKind, sdkDir: string): CommandCall[] {
  const contextParam = parameterOf(fn, contextParameter[kind]);
  const calls: CommandCall[] = [];
  const visited = new Set<Node>([fn]);
  const walk = (body: Node, depth: number): void => {
    for (const call of body.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const found = classify(call, kind, contextParam, sdkDir);
      if (found !== undefined) {
        calls.push(found);
        continue;
      }
      if (depth >= MAX_DEPTH) continue;
      const helper = functionOf(call.getExpression(), sdkDir, new Set());
      if (helper !== undefined && !visited.has(helper)) {
        visited.add(helper);
        walk(helper, depth + 1);
      }
    }
  };
  walk(fn, 0);
  return calls;
}

function parameterOf(fn: HandlerFunction, index: number): Node | undefined {
  if (Node.isMethodDeclaration(fn) || Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn)) {
    return fn.getParameters()[index];
  }
  return undefined;
}

/** A `schedule`/`command` call on a generated context, or on the handler's context parameter cast away. */
function classify(call: CallExpression, kind: HandlerKind, contextParam: Node | undefined, sdkDir: string): CommandCall | undefined {
  const resolved = generatedMethod(call, sdkDir) ?? castContextMethod(call, kind, contextParam);
  if (resolved === undefined) return undefined;
  const position = commandArgument[resolved.iface]?.[resolved.method];
  const argument = position === undefined ? undefined : call.getArguments()[position];
  if (argument === undefined) return undefined;
  return { call, method: resolved.method, argument, types: commandTypes(stripCasts(argument as Expression)) };
}

interface ResolvedMethod {
  readonly iface: string;
  readonly method: SendMethod;
}

/** The method the type checker resolves the call to, when it is one of the SDK's context interfaces. */
function generatedMethod(call: CallExpression, sdkDir: string): ResolvedMethod | undefined {
  const callee = call.getExpression();
  const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : Node.isIdentifier(callee) ? callee.getText() : undefined;
  if (name !== "schedule" && name !== "command") return undefined;
  const declaration = call.getProject().getTypeChecker().getResolvedSignature(call)?.getDeclaration();
  if (declaration === undefined || !Node.isMethodSignature(declaration)) return undefined;
  const owner = declaration.getParent();
  if (!Node.isInterfaceDeclaration(owner) || !(owner.getName() in commandArgument)) return undefined;
  if (!isUnder(declaration.getSourceFile().getFilePath() as string, sdkDir)) return undefined;
  const method = declaration.getName();
  return method === "schedule" || method === "command" ? { iface: owner.getName(), method } : undefined;
}

/** `(scope as any).schedule(…)`: the handler's own context parameter, typed away. */
function castContextMethod(call: CallExpression, kind: HandlerKind, contextParam: Node | undefined): ResolvedMethod | undefined {
  const callee = call.getExpression();
  if (contextParam === undefined || !Node.isPropertyAccessExpression(callee)) return undefined;
  const method = callee.getName();
  if (method !== "schedule" && method !== "command") return undefined;
  const receiver = stripCasts(callee.getExpression());
  if (!Node.isIdentifier(receiver) || !declarationsOf(receiver).includes(contextParam)) return undefined;
  const iface = interfaceOfKind[kind];
  return commandArgument[iface]?.[method] === undefined ? undefined : { iface, method };
}

/** The `type` literals of a command expression's type (each member of a union), or why there are none. */
function commandTypes(expression: Expression): CommandCall["types"] {
  const type = expression.getType();
  if (type.isAny() || type.isUnknown()) return { undetermined: type.getText() };
  const types: string[] = [];
  for (const member of type.isUnion() ? type.getUnionTypes() : [type]) {
    const literals = typeLiterals(member, expression);
    if (literals === undefined) return { undetermined: type.getText(expression) };
    types.push(...literals);
  }
  return [...new Set(types)].sort();
}

function typeLiterals(type: Type, at: Node): string[] | undefined {
  const property = type.getProperty("type");
  if (property === undefined) return undefined;
  const value = property.getTypeAtLocation(at);
  const members = value.isUnion() ? value.getUnionTypes() : [value];
  if (members.length === 0 || !members.every((m) => m.isStringLiteral())) return undefined;
  return members.map((m) => m.getLiteralValue() as string);
}
