// The `.wow` grammar: a Chevrotain CstParser with error recovery. One instance is built at import
// and reused for every file (`parser.input = tokens`). The CST → AST builder lives in
// compiler/parse/, apart from the grammar. Syntax errors are recorded as facts (see
// syntax-error-facts.ts) and worded for users by the builder's describer.
import type { IOrAlt, IRecognitionException, IToken, TokenType } from "chevrotain";
import { addChild, type CstElement, type CstNode } from "./cst.js";
import { CstParser, tokenMatcher, validateGrammar } from "./chevrotain.js";
import {
  Aggregate, allTokens, At, Colon, Comma, Command, Context, Dot, Enum, Equals, Event, False, Job,
  LBracket, LCurly, LParen, Name, NumberLiteral, On, Question, RBracket, RCurly, RParen, Saga,
  Service, State, StringLiteral, True, Type,
} from "./tokens.js";
import { syntaxErrorFactsProvider } from "./syntax-error-facts.js";

/** The parser state that the overrides below read and write (Chevrotain internals, 11.2.0). */
interface ParserInternals {
  readonly CST_STACK: CstNode[];
  /** Index of the last token read (-1 before the first). */
  readonly currIdx: number;
  /** The errors recorded so far (the public `errors` is a copy made at every read). */
  readonly _errors: IRecognitionException[];
}

/** Chevrotain's own `SAVE_ERROR` (internal, pinned 11.2.0), which records every syntax error. */
const saveError = (CstParser.prototype as unknown as { SAVE_ERROR(error: IRecognitionException): IRecognitionException }).SAVE_ERROR;

/**
 * Syntax errors one parse records at most. Past them the input is noise, not a file with mistakes
 * (nobody reads the 501st error; javac stops at 100): the parse stops. It also bounds Chevrotain's
 * recovery inside a repetition, which recurses once per error it recovers from: thousands
 * overflowed the stack, and each re-read the errors so far.
 */
export const MAX_SYNTAX_ERRORS = 500;

/** Thrown out of a parse that reached MAX_SYNTAX_ERRORS (the errors stay on the parser). */
export class TooManySyntaxErrors extends Error {
  constructor(readonly token: IToken) {
    super(`more than ${MAX_SYNTAX_ERRORS} syntax errors`);
  }
}

/** Errors the parser recovered from by inserting the missing token: it went on in step with the source. */
const recoveredByInsertion = new WeakSet<IRecognitionException>();

/** Whether the parser recovered from `error` by inserting the token it expected (`a int` read as `a: int`). */
export function isRecoveredByInsertion(error: IRecognitionException): boolean {
  return recoveredByInsertion.has(error);
}

/** Keywords that begin the `context` clause or a top-level declaration. */
export const DECLARATION_KEYWORDS: ReadonlySet<TokenType> = new Set([Context, Type, Enum, Service, Aggregate, Saga]);

/** Keywords that begin a declaration or a member. */
const BLOCK_KEYWORDS: ReadonlySet<TokenType> = new Set([...DECLARATION_KEYWORDS, State, Command, Event, On, Job]);

export class WowParser extends CstParser {
  constructor() {
    super(allTokens as never, {
      recoveryEnabled: true,
      maxLookahead: 2,
      // No node locations: the builder and the formatter take spans from the tokens they read
      // (compiler/parse/cst-access.ts), so no `{ startOffset, endOffset }` object per node.
      nodeLocationTracking: "none",
      errorMessageProvider: syntaxErrorFactsProvider,
      skipValidations: !validateGrammar,
    });
    this.performSelfAnalysis();
  }

  /**
   * Chevrotain's `TreeBuilder.cstInvocationStateUpdate` (an internal method: Chevrotain is pinned at
   * 11.2.0) with each node built in one literal, its `children` a flat list (see `CstNode` in cst.ts). No `location` (see `nodeLocationTracking` above): the indices of
   * the tokens the rule read instead, two numbers in the node itself.
   */
  cstInvocationStateUpdate(fullRuleName: string): void {
    const self = this as unknown as ParserInternals;
    self.CST_STACK.push({ name: fullRuleName, children: [], firstToken: self.currIdx + 1, lastToken: self.currIdx });
  }

  /**
   * Chevrotain's `TreeBuilder.cstPostTerminal` and `cstPostNonTerminal` (internal, pinned 11.2.0),
   * which add a token or a sub-rule's node to the current node: pushed on its flat list of children
   * (cst.ts). Location tracking is off, so they do nothing else.
   */
  cstPostTerminal(key: string, consumedToken: IToken): void {
    const self = this as unknown as ParserInternals;
    addChild(self.CST_STACK[self.CST_STACK.length - 1]!, key, consumedToken);
  }

  cstPostNonTerminal(ruleCstResult: CstElement, ruleName: string): void {
    const self = this as unknown as ParserInternals;
    addChild(self.CST_STACK[self.CST_STACK.length - 1]!, ruleName, ruleCstResult);
  }

  /** Chevrotain's `TreeBuilder.cstFinallyStateUpdate` (internal, pinned 11.2.0), which ends every rule. */
  cstFinallyStateUpdate(): void {
    const self = this as unknown as ParserInternals;
    self.CST_STACK.pop()!.lastToken = self.currIdx;
  }

  /**
   * Chevrotain calls this (public API) only to recover from the mismatch it has just recorded, by
   * inserting the expected token: that error is marked (see `isRecoveredByInsertion`).
   */
  protected override getTokenToInsert(tokType: TokenType): IToken {
    const errors = (this as unknown as ParserInternals)._errors;
    const last = errors[errors.length - 1];
    if (last !== undefined) recoveredByInsertion.add(last);
    return super.getTokenToInsert(tokType);
  }

  /** Records a syntax error, as Chevrotain does; stops the parse past MAX_SYNTAX_ERRORS. */
  SAVE_ERROR(error: IRecognitionException): IRecognitionException {
    const saved = saveError.call(this, error);
    if ((this as unknown as ParserInternals)._errors.length >= MAX_SYNTAX_ERRORS) throw new TooManySyntaxErrors(error.token);
    return saved;
  }

  /**
   * Keywords are names, but in a list of fields (or parameters, or arguments) a keyword that is not
   * followed by `separator` (`:` or `=`) begins the next declaration: the list is missing its closer.
   * This keeps one missing `}` from turning the rest of an aggregate into broken fields.
   */
  private nameBefore(separator: TokenType): boolean {
    return !BLOCK_KEYWORDS.has(this.LA(1).tokenType) || this.LA(2).tokenType === separator;
  }

  /** GATEs (Chevrotain calls them with the parser as `this`). */
  private fieldAhead(this: WowParser): boolean {
    return this.nameBefore(Colon);
  }

  private argumentAhead(this: WowParser): boolean {
    return this.nameBefore(Equals);
  }

  /**
   * `context⏎type T { … }`: `type` begins a declaration, and the context's name is missing (in
   * `context type⏎service S`, `type` is the name: a keyword does not name a declaration).
   */
  private contextNameAhead(this: WowParser): boolean {
    if (!DECLARATION_KEYWORDS.has(this.LA(1).tokenType)) return true;
    const next = this.LA(2);
    return !tokenMatcher(next, Name) || DECLARATION_KEYWORDS.has(next.tokenType);
  }

  /**
   * Same for enum members: a keyword followed by a name or `{` begins a declaration, unless only
   * names and commas stand between it and a `}` (`enum Switch {⏎ on⏎ off⏎ }`): an enum holds
   * nothing else, so that `}` closes the enum and the keyword is one of its members.
   */
  private enumMemberAhead(this: WowParser): boolean {
    if (!BLOCK_KEYWORDS.has(this.LA(1).tokenType)) return true;
    const next = this.LA(2);
    if (!tokenMatcher(next, Name) && next.tokenType !== LCurly) return true;
    return this.namesUpToClosingBrace();
  }

  /**
   * The `}` that the last scan of `namesUpToClosingBrace` reached, and its index in the input: the
   * next members of the same enum are answered without scanning again (an enum of many keywords would
   * otherwise be scanned once per member).
   */
  private namesCloser: { readonly token: IToken; readonly index: number } | undefined;

  /** Whether the tokens from the next one on are names and commas up to a `}`. */
  private namesUpToClosingBrace(): boolean {
    const at = (this as unknown as ParserInternals).currIdx;
    const known = this.namesCloser;
    if (known !== undefined && known.index > at && this.LA(known.index - at) === known.token) return true;
    for (let k = 1; ; k++) {
      const ahead = this.LA(k);
      if (ahead.tokenType === RCurly) {
        this.namesCloser = { token: ahead, index: at + k };
        return true;
      }
      if (!tokenMatcher(ahead, Name) && ahead.tokenType !== Comma) return false;
    }
  }

  // Every DSL argument below (ALT, DEF and GATE functions, alternative lists) is built once per
  // instance, in a field, instead of at each rule call: a rule's impl then allocates no closures.
  // (Chevrotain tells occurrences apart by method and index, OPTION vs OPTION2, not by function.)
  private readonly optionalComma = (): void => {
    this.CONSUME(Comma);
  };
  private readonly fieldBlockIfAny = (): void => {
    this.SUBRULE(this.fieldBlock);
  };
  private readonly parameterListIfAny = (): void => {
    this.SUBRULE(this.parameterList);
  };
  private readonly annotations = (): void => {
    this.SUBRULE(this.annotation);
  };
  private readonly members = (): void => {
    this.SUBRULE(this.member);
  };

  /** A file: `context NAME` then declarations. Order and repetition are checked by the builder. */
  readonly file = this.RULE("file", () => {
    this.MANY(this.fileItem);
  });

  private readonly fileItems: IOrAlt<unknown>[] = [
    { ALT: () => this.SUBRULE(this.contextClause) },
    { ALT: () => this.SUBRULE(this.declaration) },
  ];
  private readonly fileItem = (): void => {
    this.OR(this.fileItems);
  };

  readonly contextClause = this.RULE("contextClause", () => {
    this.CONSUME(Context);
    this.OPTION(this.contextName);
  });

  /** The context's name; missing (reported by the builder) when a declaration follows `context`. */
  private readonly contextName = {
    GATE: this.contextNameAhead,
    DEF: (): void => {
      this.CONSUME(Name);
    },
  };

  readonly declaration = this.RULE("declaration", () => {
    this.MANY(this.annotations);
    this.OR(this.declarationAlternatives);
  });

  private readonly memberAlternatives: IOrAlt<unknown>[] = [
    { ALT: () => this.SUBRULE(this.stateBlock) },
    { ALT: () => this.SUBRULE(this.commandDeclaration) },
    { ALT: () => this.SUBRULE(this.eventDeclaration) },
    { ALT: () => this.SUBRULE(this.handlerDeclaration) },
    { ALT: () => this.SUBRULE(this.jobDeclaration) },
  ];

  private readonly declarationAlternatives: IOrAlt<unknown>[] = [
    { ALT: () => this.SUBRULE(this.typeDeclaration) },
    { ALT: () => this.SUBRULE(this.enumDeclaration) },
    { ALT: () => this.SUBRULE(this.serviceDeclaration) },
    { ALT: () => this.SUBRULE(this.aggregateDeclaration) },
    { ALT: () => this.SUBRULE(this.sagaDeclaration) },
    // Members out of place: parsed so that the rest of the file parses, reported by the builder.
    ...this.memberAlternatives,
  ];

  readonly typeDeclaration = this.RULE("typeDeclaration", () => {
    this.CONSUME(Type);
    this.CONSUME(Name);
    this.OPTION(this.fieldBlockIfAny);
  });

  readonly enumDeclaration = this.RULE("enumDeclaration", () => {
    this.CONSUME(Enum);
    this.CONSUME(Name);
    this.CONSUME(LCurly);
    this.MANY(this.enumMembers);
    this.CONSUME(RCurly);
  });

  private readonly enumMembers = {
    GATE: this.enumMemberAhead,
    DEF: (): void => {
      this.SUBRULE(this.enumMember);
      this.OPTION(this.optionalComma);
    },
  };

  readonly enumMember = this.RULE("enumMember", () => {
    this.CONSUME(Name);
  });

  readonly serviceDeclaration = this.RULE("serviceDeclaration", () => {
    this.CONSUME(Service);
    this.CONSUME(Name);
  });

  readonly aggregateDeclaration = this.RULE("aggregateDeclaration", () => {
    this.CONSUME(Aggregate);
    this.CONSUME(Name);
    this.CONSUME(LCurly);
    this.MANY(this.members);
    this.CONSUME(RCurly);
  });

  readonly sagaDeclaration = this.RULE("sagaDeclaration", () => {
    this.CONSUME(Saga);
    this.CONSUME(Name);
    this.CONSUME(LCurly);
    this.MANY(this.members);
    this.CONSUME(RCurly);
  });

  /** Any member of an aggregate or a saga; the builder reports members in the wrong place. */
  readonly member = this.RULE("member", () => {
    this.MANY(this.annotations);
    this.OR(this.memberAlternatives);
  });

  readonly stateBlock = this.RULE("stateBlock", () => {
    this.CONSUME(State);
    this.SUBRULE(this.fieldBlock);
  });

  readonly commandDeclaration = this.RULE("commandDeclaration", () => {
    this.CONSUME(Command);
    this.CONSUME(Name);
    this.OPTION(this.fieldBlockIfAny);
  });

  readonly eventDeclaration = this.RULE("eventDeclaration", () => {
    this.CONSUME(Event);
    this.CONSUME(Name);
    this.OPTION(this.fieldBlockIfAny);
  });

  readonly handlerDeclaration = this.RULE("handlerDeclaration", () => {
    this.CONSUME(On);
    this.SUBRULE(this.qualifiedName);
    this.OPTION(this.parameterListIfAny);
  });

  readonly jobDeclaration = this.RULE("jobDeclaration", () => {
    this.CONSUME(Job);
    this.CONSUME(Name);
    this.OPTION(this.parameterListIfAny);
  });

  readonly fieldBlock = this.RULE("fieldBlock", () => {
    this.CONSUME(LCurly);
    this.MANY(this.fields);
    this.CONSUME(RCurly);
  });

  private readonly fields = {
    GATE: this.fieldAhead,
    DEF: (): void => {
      this.SUBRULE(this.field);
      this.OPTION(this.optionalComma);
    },
  };

  readonly field = this.RULE("field", () => {
    this.CONSUME(Name);
    this.CONSUME(Colon);
    this.SUBRULE(this.typeRef);
  });

  readonly typeRef = this.RULE("typeRef", () => {
    this.SUBRULE(this.qualifiedName);
    this.OPTION(this.arraySuffix);
    this.OPTION2(this.optionalSuffix);
  });

  private readonly arraySuffix = (): void => {
    this.CONSUME(LBracket);
    this.CONSUME(RBracket);
  };
  private readonly optionalSuffix = (): void => {
    this.CONSUME(Question);
  };

  readonly parameterList = this.RULE("parameterList", () => {
    this.CONSUME(LParen);
    this.MANY(this.parameters);
    this.CONSUME(RParen);
  });

  private readonly parameters = {
    GATE: this.fieldAhead,
    DEF: (): void => {
      this.SUBRULE(this.parameter);
      this.OPTION(this.optionalComma);
    },
  };

  readonly parameter = this.RULE("parameter", () => {
    this.CONSUME(Name);
    this.CONSUME(Colon);
    this.SUBRULE(this.qualifiedName);
  });

  /** `Name` or `context-name.Name`. */
  readonly qualifiedName = this.RULE("qualifiedName", () => {
    this.CONSUME(Name);
    this.OPTION(this.contextQualified);
  });

  private readonly contextQualified = (): void => {
    this.CONSUME(Dot);
    this.CONSUME2(Name);
  };

  readonly annotation = this.RULE("annotation", () => {
    this.CONSUME(At);
    this.CONSUME(Name);
    this.OPTION(this.annotationArguments);
  });

  private readonly annotationArguments = (): void => {
    this.CONSUME(LParen);
    this.MANY(this.annotationArgumentItems);
    this.CONSUME(RParen);
  };

  private readonly annotationArgumentItems = {
    GATE: this.argumentAhead,
    DEF: (): void => {
      this.SUBRULE(this.annotationArgument);
      this.OPTION2(this.optionalComma);
    },
  };

  readonly annotationArgument = this.RULE("annotationArgument", () => {
    this.CONSUME(Name);
    this.CONSUME(Equals);
    this.SUBRULE(this.annotationValue);
  });

  readonly annotationValue = this.RULE("annotationValue", () => {
    this.OR(this.valueAlternatives);
  });

  private readonly valueAlternatives: IOrAlt<unknown>[] = [
    { ALT: () => this.CONSUME(StringLiteral) },
    { ALT: () => this.CONSUME(NumberLiteral) },
    { ALT: () => this.CONSUME(True) },
    { ALT: () => this.CONSUME(False) },
    { ALT: () => this.SUBRULE(this.qualifiedName), IGNORE_AMBIGUITIES: true },
    { ALT: () => this.SUBRULE(this.listValue) },
  ];

  readonly listValue = this.RULE("listValue", () => {
    this.CONSUME(LBracket);
    this.MANY(this.listItems);
    this.CONSUME(RBracket);
  });

  private readonly listItems = (): void => {
    this.SUBRULE(this.annotationValue);
    this.OPTION(this.optionalComma);
  };
}

let parser: WowParser | undefined;

/**
 * The one parser instance, reused for every file, built on first use: a well-formed file is read
 * without it (compiler/parse/direct-ast.ts), so a build of such files never builds it.
 */
export function wowParser(): WowParser {
  return (parser ??= new WowParser());
}

/** How many times `parseCst` has run on the shared instance (lets tests check reuse). */
let runs = 0;
export function parserRuns(): number {
  return runs;
}

/** Parses `tokens` from the start rule `file` on the shared parser; errors stay on `wowParser().errors`. */
export function parseCst(tokens: IToken[]): CstNode {
  runs += 1;
  const shared = wowParser();
  shared.input = tokens;
  return shared.file() as unknown as CstNode;
}
