// Small ts-morph helpers: look through casts and parentheses, follow an identifier to the
// declaration it names (through imports), and tell project code from the SDK and libraries.
import { Node, type Expression, type Symbol as TsSymbol } from "ts-morph";

/** `(x as any)`, `<T>x`, `x!`, `x satisfies T` → `x`. */
export function stripCasts(expression: Expression): Expression {
  let current: Expression = expression;
  for (;;) {
    if (Node.isParenthesizedExpression(current) || Node.isAsExpression(current) || Node.isTypeAssertion(current) || Node.isNonNullExpression(current) || Node.isSatisfiesExpression(current)) {
      current = current.getExpression();
    } else {
      return current;
    }
  }
}

/** The declarations a name refers to, through `import`/`export` aliases. */
export function declarationsOf(node: Node): Node[] {
  const symbol = node.getSymbol();
  if (symbol === undefined) return [];
  return resolveAlias(symbol).getDeclarations();
}

export function resolveAlias(symbol: TsSymbol): TsSymbol {
  return symbol.isAlias() ? (symbol.getAliasedSymbol() ?? symbol) : symbol;
}

/** A `.ts` file of the host's own code: not a declaration file, not under node_modules, not in the SDK. */
export function isProjectCode(node: Node, sdkDir: string): boolean {
  const source = node.getSourceFile();
  const path = source.getFilePath() as string;
  return !source.isDeclarationFile() && !path.includes("/node_modules/") && !isUnder(path, sdkDir);
}

export function isUnder(path: string, dir: string): boolean {
  return path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);
}
