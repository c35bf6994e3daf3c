// Finding the host's implementations: every call of a generated `define…` function (the callee
// resolved by the type checker to its declaration in the SDK), the implementation object it is
// given (inline, through variables, an `export default`, or a function that returns one object
// literal), and for each declared handler the function that implements
// it (a method, an arrow function, or a reference to a function declared elsewhere in the project).
import { Node, SyntaxKind, type CallExpression, type Expression, type ObjectLiteralExpression, type Project, type Symbol as TsSymbol } from "ts-morph";
import type { OwnerDeclaration } from "./declarations.js";
import { declarationsOf, isProjectCode, isUnder, resolveAlias, stripCasts } from "./syntax.js";

/** A function-like node with a body the checker can read. */
export type HandlerFunction = Node;

export interface HandlerImplementation {
  /** The property (or the `define…` call when the object could not be read). */
  readonly site: Node;
  /** Undefined when the implementation cannot be followed (a call result, a parameter, a library). */
  readonly fn?: HandlerFunction;
}

export interface Implementation {
  readonly owner: OwnerDeclaration;
  readonly call: CallExpression;
  /** By handler function name; a handler absent here is missing (tsc reports it) or not followed. */
  readonly handlers: ReadonlyMap<string, HandlerImplementation>;
  /** False when the object could not be read completely: then nothing is "never scheduled". */
  readonly complete: boolean;
  /** Set when the implementation object itself could not be found: its handlers were not checked. */
  readonly unread?: boolean;
}

export function findImplementations(project: Project, owners: readonly OwnerDeclaration[], sdkDir: string): Implementation[] {
  const byFunction = new Map(owners.map((owner) => [`${sdkDir}/${owner.sdkFile}#${owner.define}`, owner]));
  const found: Implementation[] = [];
  for (const source of project.getSourceFiles()) {
    if (!isProjectCode(source, sdkDir)) continue;
    for (const call of source.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const owner = ownerOf(call, byFunction, sdkDir);
      if (owner !== undefined) found.push(implementationOf(owner, call, sdkDir));
    }
  }
  return found;
}

/** The aggregate or saga whose generated `define…` the call invokes, if any. */
/** `byFunction`: owners keyed by `<sdk file without extension>#<define… name>`. */
function ownerOf(call: CallExpression, byFunction: ReadonlyMap<string, OwnerDeclaration>, sdkDir: string): OwnerDeclaration | undefined {
  const callee = call.getExpression();
  if (!Node.isIdentifier(callee) && !Node.isPropertyAccessExpression(callee)) return undefined;
  for (const declaration of declarationsOf(callee)) {
    const name = Node.isFunctionDeclaration(declaration) ? declaration.getName() ?? "" : "";
    if (!name.startsWith("define")) continue;
    const path = declaration.getSourceFile().getFilePath() as string;
    if (!isUnder(path, sdkDir)) continue;
    const owner = byFunction.get(`${path.replace(/(\.d)?\.[cm]?[jt]s$/, "")}#${name}`);
    if (owner !== undefined) return owner;
  }
  return undefined;
}

function implementationOf(owner: OwnerDeclaration, call: CallExpression, sdkDir: string): Implementation {
  const handlers = new Map<string, HandlerImplementation>();
  const argument = call.getArguments()[0];
  const object = argument === undefined ? undefined : objectOf(argument as Expression, new Set());
  if (object === undefined) return { owner, call, handlers, complete: false, unread: true };
  let complete = true;
  for (const handler of owner.handlers) {
    const site = propertyOf(object, handler.function, new Set());
    if (site === "unknown") complete = false;
    else if (site !== undefined) {
      const fn = functionOfProperty(site, sdkDir);
      handlers.set(handler.function, fn === undefined ? { site } : { site, fn });
    }
  }
  return { owner, call, handlers, complete };
}

/**
 * The object literal an expression evaluates to, following `const` and `let` initialisers,
 * `export default` (through imports), and calls of a function that returns one object literal.
 */
function objectOf(expression: Expression, seen: Set<Node>): ObjectLiteralExpression | undefined {
  const inner = stripCasts(expression);
  if (Node.isObjectLiteralExpression(inner)) return inner;
  if (seen.has(inner)) return undefined;
  seen.add(inner);
  if (Node.isCallExpression(inner)) {
    const callee = stripCasts(inner.getExpression());
    if (Node.isArrowFunction(callee) || Node.isFunctionExpression(callee)) return returnedObject(callee, seen);
    if (!Node.isIdentifier(callee) && !Node.isPropertyAccessExpression(callee)) return undefined;
    for (const declaration of declarationsOf(callee)) {
      const fn = factoryOf(declaration, seen);
      const object = fn === undefined ? undefined : returnedObject(fn, seen);
      if (object !== undefined) return object;
    }
    return undefined;
  }
  if (!Node.isIdentifier(inner) && !Node.isPropertyAccessExpression(inner)) return undefined;
  for (const declaration of declarationsOf(inner)) {
    if (Node.isVariableDeclaration(declaration) || Node.isPropertyAssignment(declaration)) {
      const initializer = declaration.getInitializer();
      if (initializer !== undefined) return objectOf(initializer, seen);
    } else if (Node.isExportAssignment(declaration)) {
      return objectOf(declaration.getExpression(), seen);
    }
  }
  return undefined;
}

/** The function a callee's declaration names: a function declaration, or a variable holding a function expression. */
function factoryOf(declaration: Node, seen: Set<Node>): Node | undefined {
  if (Node.isFunctionDeclaration(declaration) || Node.isMethodDeclaration(declaration)) return declaration.hasBody() ? declaration : undefined;
  if (Node.isVariableDeclaration(declaration) || Node.isPropertyAssignment(declaration)) {
    const initializer = declaration.getInitializer();
    if (initializer === undefined) return undefined;
    const inner = stripCasts(initializer);
    if (Node.isArrowFunction(inner) || Node.isFunctionExpression(inner)) return inner;
  }
  if (Node.isExportAssignment(declaration)) {
    const inner = stripCasts(declaration.getExpression());
    if (Node.isArrowFunction(inner) || Node.isFunctionExpression(inner)) return inner;
    if (Node.isIdentifier(inner) && !seen.has(inner)) {
      seen.add(inner);
      for (const d of declarationsOf(inner)) {
        const fn = factoryOf(d, seen);
        if (fn !== undefined) return fn;
      }
    }
  }
  return undefined;
}

/** The object literal a function returns: its expression body, or its one `return` (nested functions aside). */
function returnedObject(fn: Node, seen: Set<Node>): ObjectLiteralExpression | undefined {
  if (Node.isArrowFunction(fn)) {
    const body = fn.getBody();
    if (!Node.isBlock(body)) return objectOf(body as Expression, seen);
  }
  const body = Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn) || Node.isFunctionExpression(fn) || Node.isArrowFunction(fn) ? fn.getBody() : undefined;
  if (body === undefined) return undefined;
  const returns: Expression[] = [];
  let other = false;
  body.forEachDescendant((node, traversal) => {
    if (Node.isFunctionLikeDeclaration(node) || Node.isFunctionExpression(node) || Node.isClassDeclaration(node) || Node.isClassExpression(node)) {
      traversal.skip();
    } else if (Node.isReturnStatement(node)) {
      const expression = node.getExpression();
      if (expression === undefined) other = true;
      else returns.push(expression);
    }
  });
  return !other && returns.length === 1 ? objectOf(returns[0]!, seen) : undefined;
}

/**
 * The member named `name` of an object literal (the last one wins, as at run time, spreads
 * included); `"unknown"` when a spread cannot be read and might hold it.
 */
function propertyOf(object: ObjectLiteralExpression, name: string, seen: Set<Node>): Node | "unknown" | undefined {
  let result: Node | "unknown" | undefined;
  for (const property of object.getProperties()) {
    if (Node.isSpreadAssignment(property)) {
      const spread = seen.has(property) ? undefined : objectOf(property.getExpression(), seen);
      seen.add(property);
      const inner = spread === undefined ? "unknown" : propertyOf(spread, name, seen);
      if (inner !== undefined) result = inner;
    } else if ((Node.isMethodDeclaration(property) || Node.isPropertyAssignment(property) || Node.isShorthandPropertyAssignment(property)) && property.getName() === name) {
      result = property;
    }
  }
  return result;
}

/** The function a handler property holds. */
function functionOfProperty(property: Node, sdkDir: string): HandlerFunction | undefined {
  if (Node.isMethodDeclaration(property)) return property;
  if (Node.isPropertyAssignment(property)) {
    const initializer = property.getInitializer();
    return initializer === undefined ? undefined : functionOf(initializer, sdkDir, new Set());
  }
  if (Node.isShorthandPropertyAssignment(property)) {
    const symbol = property.getValueSymbol();
    for (const declaration of symbol === undefined ? [] : declarationsOfSymbol(symbol)) {
      const fn = functionOfDeclaration(declaration, sdkDir, new Set());
      if (fn !== undefined) return fn;
    }
  }
  return undefined;
}

/** The function an expression evaluates to: a function expression, or a name of one in the project. */
export function functionOf(expression: Expression, sdkDir: string, seen: Set<Node>): HandlerFunction | undefined {
  const inner = stripCasts(expression);
  if (Node.isArrowFunction(inner) || Node.isFunctionExpression(inner)) return inner;
  if (!Node.isIdentifier(inner) && !Node.isPropertyAccessExpression(inner)) return undefined;
  if (seen.has(inner)) return undefined;
  seen.add(inner);
  for (const declaration of declarationsOf(inner)) {
    const fn = functionOfDeclaration(declaration, sdkDir, seen);
    if (fn !== undefined) return fn;
  }
  return undefined;
}

function functionOfDeclaration(declaration: Node, sdkDir: string, seen: Set<Node>): HandlerFunction | undefined {
  if (!isProjectCode(declaration, sdkDir)) return undefined;
  if (Node.isFunctionDeclaration(declaration) || Node.isMethodDeclaration(declaration)) return declaration.hasBody() ? declaration : undefined;
  if (Node.isVariableDeclaration(declaration) || Node.isPropertyAssignment(declaration)) {
    const initializer = declaration.getInitializer();
    return initializer === undefined ? undefined : functionOf(initializer, sdkDir, seen);
  }
  if (Node.isShorthandPropertyAssignment(declaration)) {
    const symbol = declaration.getValueSymbol();
    for (const d of symbol === undefined ? [] : declarationsOfSymbol(symbol)) {
      const fn = functionOfDeclaration(d, sdkDir, seen);
      if (fn !== undefined) return fn;
    }
  }
  return undefined;
}

function declarationsOfSymbol(symbol: TsSymbol): Node[] {
  return resolveAlias(symbol).getDeclarations();
}
