// The `.wow` grammar: a Chevrotain CstParser with error recovery. One instance is built at import
// and reused for every file (`parser.input = tokens`). The CST → AST builder lives in
// compiler/parse/, apart from the grammar. Syntax errors are recorded as facts (see
// syntax-error-facts.ts) and worded for users by the builder's describer.
import type { CstNode, IOrAlt, IToken, TokenType } from "chevrotain";
import { CstParser, tokenMatcher, validateGrammar } from "./chevrotain.js";
import {
  Aggregate, allTokens, At, Colon, Comma, Command, Context, Dot, Enum, Equals, Event, False, Job,
  LBracket, LCurly, LParen, Name, NumberLiteral, On, Question, RBracket, RCurly, RParen, Saga,
  Service, State, StringLiteral, True, Type,
} from "./tokens.js";
import { syntaxErrorFactsProvider } from "./syntax-error-facts.js";

/** Keywords that begin a declaration or a member. */
const BLOCK_KEYWORDS: ReadonlySet<TokenType> = new Set([Context, Type, Enum, Service, Aggregate, Saga, State, Command, Event, On, Job]);

export class WowParser extends CstParser {
  // Alternatives of each OR, built once (Chevrotain's advice: no closures allocated per call).
  private fileAlternatives?: IOrAlt<unknown>[];
  private declarationAlternatives?: IOrAlt<unknown>[];
  private memberAlternativesCache?: IOrAlt<unknown>[];
  private valueAlternatives?: IOrAlt<unknown>[];

  constructor() {
    super(allTokens as never, {
      recoveryEnabled: true,
      maxLookahead: 2,
      nodeLocationTracking: "onlyOffset",
      errorMessageProvider: syntaxErrorFactsProvider,
      skipValidations: !validateGrammar,
    });
    this.performSelfAnalysis();
  }

  /**
   * Keywords are names, but in a list of fields (or parameters, or arguments) a keyword that is not
   * followed by `separator` (`:` or `=`) begins the next declaration: the list is missing its closer.
   * This keeps one missing `}` from turning the rest of an aggregate into broken fields.
   */
  private nameBefore(separator: TokenType): boolean {
    return !BLOCK_KEYWORDS.has(this.LA(1).tokenType) || this.LA(2).tokenType === separator;
  }

  /** Same for enum members: a keyword followed by a name or `{` begins a declaration. */
  private enumMemberAhead(): boolean {
    if (!BLOCK_KEYWORDS.has(this.LA(1).tokenType)) return true;
    const next = this.LA(2);
    return !tokenMatcher(next, Name) && next.tokenType !== LCurly;
  }

  /** A file: `context NAME` then declarations. Order and repetition are checked by the builder. */
  readonly file = this.RULE("file", () => {
    this.MANY(() => {
      this.OR((this.fileAlternatives ??= [
        { ALT: () => this.SUBRULE(this.contextClause) },
        { ALT: () => this.SUBRULE(this.declaration) },
      ]));
    });
  });

  readonly contextClause = this.RULE("contextClause", () => {
    this.CONSUME(Context);
    this.CONSUME(Name);
  });

  readonly declaration = this.RULE("declaration", () => {
    this.MANY(() => this.SUBRULE(this.annotation));
    this.OR((this.declarationAlternatives ??= [
      { ALT: () => this.SUBRULE(this.typeDeclaration) },
      { ALT: () => this.SUBRULE(this.enumDeclaration) },
      { ALT: () => this.SUBRULE(this.serviceDeclaration) },
      { ALT: () => this.SUBRULE(this.aggregateDeclaration) },
      { ALT: () => this.SUBRULE(this.sagaDeclaration) },
      // Members out of place: parsed so that the rest of the file parses, reported by the builder.
      ...this.memberAlternatives(),
    ]));
  });

  readonly typeDeclaration = this.RULE("typeDeclaration", () => {
    this.CONSUME(Type);
    this.CONSUME(Name);
    this.OPTION(() => this.SUBRULE(this.fieldBlock));
  });

  readonly enumDeclaration = this.RULE("enumDeclaration", () => {
    this.CONSUME(Enum);
    this.CONSUME(Name);
    this.CONSUME(LCurly);
    this.MANY({
      GATE: () => this.enumMemberAhead(),
      DEF: () => {
        this.SUBRULE(this.enumMember);
        this.OPTION(() => this.CONSUME(Comma));
      },
    });
    this.CONSUME(RCurly);
  });

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
    this.MANY(() => this.SUBRULE(this.member));
    this.CONSUME(RCurly);
  });

  readonly sagaDeclaration = this.RULE("sagaDeclaration", () => {
    this.CONSUME(Saga);
    this.CONSUME(Name);
    this.CONSUME(LCurly);
    this.MANY(() => this.SUBRULE(this.member));
    this.CONSUME(RCurly);
  });

  /** Any member of an aggregate or a saga; the builder reports members in the wrong place. */
  readonly member = this.RULE("member", () => {
    this.MANY(() => this.SUBRULE(this.annotation));
    this.OR((this.memberAlternativesCache ??= this.memberAlternatives()));
  });

  private memberAlternatives(): IOrAlt<unknown>[] {
    return [
      { ALT: () => this.SUBRULE(this.stateBlock) },
      { ALT: () => this.SUBRULE(this.commandDeclaration) },
      { ALT: () => this.SUBRULE(this.eventDeclaration) },
      { ALT: () => this.SUBRULE(this.handlerDeclaration) },
      { ALT: () => this.SUBRULE(this.jobDeclaration) },
    ];
  }

  readonly stateBlock = this.RULE("stateBlock", () => {
    this.CONSUME(State);
    this.SUBRULE(this.fieldBlock);
  });

  readonly commandDeclaration = this.RULE("commandDeclaration", () => {
    this.CONSUME(Command);
    this.CONSUME(Name);
    this.OPTION(() => this.SUBRULE(this.fieldBlock));
  });

  readonly eventDeclaration = this.RULE("eventDeclaration", () => {
    this.CONSUME(Event);
    this.CONSUME(Name);
    this.OPTION(() => this.SUBRULE(this.fieldBlock));
  });

  readonly handlerDeclaration = this.RULE("handlerDeclaration", () => {
    this.CONSUME(On);
    this.SUBRULE(this.qualifiedName);
    this.OPTION(() => this.SUBRULE(this.parameterList));
  });

  readonly jobDeclaration = this.RULE("jobDeclaration", () => {
    this.CONSUME(Job);
    this.CONSUME(Name);
    this.OPTION(() => this.SUBRULE(this.parameterList));
  });

  readonly fieldBlock = this.RULE("fieldBlock", () => {
    this.CONSUME(LCurly);
    this.MANY({
      GATE: () => this.nameBefore(Colon),
      DEF: () => {
        this.SUBRULE(this.field);
        this.OPTION(() => this.CONSUME(Comma));
      },
    });
    this.CONSUME(RCurly);
  });

  readonly field = this.RULE("field", () => {
    this.CONSUME(Name);
    this.CONSUME(Colon);
    this.SUBRULE(this.typeRef);
  });

  readonly typeRef = this.RULE("typeRef", () => {
    this.SUBRULE(this.qualifiedName);
    this.OPTION(() => {
      this.CONSUME(LBracket);
      this.CONSUME(RBracket);
    });
    this.OPTION2(() => this.CONSUME(Question));
  });

  readonly parameterList = this.RULE("parameterList", () => {
    this.CONSUME(LParen);
    this.MANY({
      GATE: () => this.nameBefore(Colon),
      DEF: () => {
        this.SUBRULE(this.parameter);
        this.OPTION(() => this.CONSUME(Comma));
      },
    });
    this.CONSUME(RParen);
  });

  readonly parameter = this.RULE("parameter", () => {
    this.CONSUME(Name);
    this.CONSUME(Colon);
    this.SUBRULE(this.qualifiedName);
  });

  /** `Name` or `context-name.Name`. */
  readonly qualifiedName = this.RULE("qualifiedName", () => {
    this.CONSUME(Name);
    this.OPTION(() => {
      this.CONSUME(Dot);
      this.CONSUME2(Name);
    });
  });

  readonly annotation = this.RULE("annotation", () => {
    this.CONSUME(At);
    this.CONSUME(Name);
    this.OPTION(() => {
      this.CONSUME(LParen);
      this.MANY({
        GATE: () => this.nameBefore(Equals),
        DEF: () => {
          this.SUBRULE(this.annotationArgument);
          this.OPTION2(() => this.CONSUME(Comma));
        },
      });
      this.CONSUME(RParen);
    });
  });

  readonly annotationArgument = this.RULE("annotationArgument", () => {
    this.CONSUME(Name);
    this.CONSUME(Equals);
    this.SUBRULE(this.annotationValue);
  });

  readonly annotationValue = this.RULE("annotationValue", () => {
    this.OR((this.valueAlternatives ??= [
      { ALT: () => this.CONSUME(StringLiteral) },
      { ALT: () => this.CONSUME(NumberLiteral) },
      { ALT: () => this.CONSUME(True) },
      { ALT: () => this.CONSUME(False) },
      { ALT: () => this.SUBRULE(this.qualifiedName), IGNORE_AMBIGUITIES: true },
      { ALT: () => this.SUBRULE(this.listValue) },
    ]));
  });

  readonly listValue = this.RULE("listValue", () => {
    this.CONSUME(LBracket);
    this.MANY(() => {
      this.SUBRULE(this.annotationValue);
      this.OPTION(() => this.CONSUME(Comma));
    });
    this.CONSUME(RBracket);
  });
}

/** The one parser instance, reused for every file. */
export const wowParser = new WowParser();

/** How many times `parseCst` has run on the shared instance (lets tests check reuse). */
let runs = 0;
export function parserRuns(): number {
  return runs;
}

/** Parses `tokens` from the start rule `file` on the shared parser; errors stay on `wowParser.errors`. */
export function parseCst(tokens: IToken[]): CstNode {
  runs += 1;
  wowParser.input = tokens;
  return wowParser.file();
}
