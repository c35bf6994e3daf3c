// Chevrotain builds a message string for each syntax error. Instead of words we record facts (what
// kind of error, which rule, which tokens were expected) as JSON in that string; the builder in
// compiler/parse/ turns them into user-facing diagnostics with the surrounding source in view.
import type { IParserErrorMessageProvider, TokenType } from "chevrotain";

export type SyntaxErrorKind = "mismatch" | "noViableAlt" | "earlyExit" | "notAllInput";

export interface SyntaxErrorFacts {
  readonly kind: SyntaxErrorKind;
  /** The grammar rule that failed (`field`, `aggregateDeclaration`, …). */
  readonly rule: string;
  /** Names of the token types that would have been accepted (first tokens of each path). */
  readonly expected: readonly string[];
}

function firstTokens(paths: readonly (readonly TokenType[])[]): string[] {
  const names: string[] = [];
  for (const path of paths) {
    const first = path[0];
    if (first !== undefined && !names.includes(first.name)) names.push(first.name);
  }
  return names;
}

function encode(facts: SyntaxErrorFacts): string {
  return JSON.stringify(facts);
}

/** Reads the facts back; `undefined` when the message was not written by this provider. */
export function decodeSyntaxErrorFacts(message: string): SyntaxErrorFacts | undefined {
  if (!message.startsWith("{")) return undefined;
  try {
    return JSON.parse(message) as SyntaxErrorFacts;
  } catch {
    return undefined;
  }
}

function shortRule(fullName: string): string {
  // `getCurrRuleFullName` may qualify the rule; keep the last segment.
  const dot = fullName.lastIndexOf(".");
  return dot < 0 ? fullName : fullName.slice(dot + 1);
}

export const syntaxErrorFactsProvider: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, ruleName }) {
    return encode({ kind: "mismatch", rule: shortRule(ruleName), expected: [expected.name] });
  },
  buildNotAllInputParsedMessage({ ruleName }) {
    return encode({ kind: "notAllInput", rule: shortRule(ruleName), expected: [] });
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, ruleName }) {
    return encode({ kind: "noViableAlt", rule: shortRule(ruleName), expected: firstTokens(expectedPathsPerAlt.flat()) });
  },
  buildEarlyExitMessage({ expectedIterationPaths, ruleName }) {
    return encode({ kind: "earlyExit", rule: shortRule(ruleName), expected: firstTokens(expectedIterationPaths) });
  },
};
