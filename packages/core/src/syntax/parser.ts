/**
 * parser: tokens → AST for EdgeQL, by hand-written recursive descent with precedence climbing
 * for expressions (levels and associativity from ./precedence).
 *
 * `Parser` holds the whole parse state (tokens and cursor) — there is no module-level state —
 * and is extended by `SchemaParser` (./sdl-parser) so SDL reuses the same expression grammar.
 * Syntax errors are thrown as the parser's `errorClass` (EdgeQLSyntaxError for queries,
 * SchemaSyntaxError for SDL) with a 1-based position and, where a likely mistake is known, a hint.
 * "Unexpected X" points at X; "Missing X" points just after the last good token, as in Gel.
 */
import { EdgeQLSyntaxError, type QueryErrorClass } from '../errors';
import { MAX_NESTING_DEPTH, nestingError } from './depth';
import {
  create,
  isQuery,
  type AliasedExpr,
  type AnchorName,
  type BinaryOperator,
  type ConstantScalar,
  type DeleteQuery,
  type Expr,
  type ForQuery,
  type FunctionCall,
  type GroupingAtom,
  type GroupingElement,
  type GroupingIdent,
  type GroupQuery,
  type InternalGroupQuery,
  type IfElse,
  type InsertQuery,
  type NamedArg,
  type ObjectRef,
  type Path,
  type PathStep,
  type Ptr,
  type Query,
  type SelectQuery,
  type ShapeElement,
  type ShapePathStep,
  type SortExpr,
  type Span,
  type Statement,
  type TypeExpr,
  type TypeIntersection,
  type TypeName,
  type TypeSubtype,
  type UnlessConflict,
  type UpdateQuery,
  type WithItem,
} from './ast';
import { CLAUSE_KEYWORDS, STATEMENT_KEYWORDS, didYouMean, suggest } from './hints';
import { tokenize } from './lexer';
import {
  BINARY_OPERATORS,
  IF_ELSE_OPERATOR,
  IS_OPERATOR,
  Precedence,
  UNARY_OPERATORS,
  type OperatorInfo,
} from './precedence';
import {
  PARTIAL_RESERVED_KEYWORDS,
  RESERVED_KEYWORDS,
  UNRESERVED_KEYWORDS,
  describeToken,
  type Position,
  type Token,
  type TokenKind,
} from './tokens';

/** Keywords that start a query (a statement usable as a subquery). */
const QUERY_START = new Set(['select', 'insert', 'update', 'delete', 'for', 'group', 'with']);

const ANCHORS = new Set<string>([
  '__subject__',
  '__source__',
  '__new__',
  '__old__',
  '__specified__',
  '__default__',
]);

/** Keywords that begin an expression (besides names and the query keywords). */
const EXPRESSION_KEYWORDS = new Set([
  'true',
  'false',
  'not',
  'exists',
  'distinct',
  'detached',
  'global',
  'introspect',
  'if',
  '__std__',
  ...ANCHORS,
]);

/** Statements of Gel that svc does not accept, with the reason shown as a hint. */
const UNSUPPORTED_STATEMENTS: Readonly<Record<string, string>> = {
  create: 'DDL statements are not supported: declare the schema in SDL',
  alter: 'DDL statements are not supported: declare the schema in SDL',
  drop: 'DDL statements are not supported: declare the schema in SDL',
  configure: "'configure' statements are not supported",
  start: 'transaction statements are not supported',
  commit: 'transaction statements are not supported',
  rollback: 'transaction statements are not supported',
  describe: "'describe' statements are not supported",
  analyze: "'analyze' statements are not supported",
  administer: "'administer' statements are not supported",
};

interface InfixOperator {
  readonly op: BinaryOperator | 'if' | 'is' | 'is not';
  readonly info: OperatorInfo;
  /** Tokens the operator spans (`not in` is two). */
  readonly length: number;
}

type Closing = ')' | ']' | '}' | '>';

export class Parser {
  protected readonly tokens: readonly Token[];
  protected index = 0;
  /** Nested constructs being parsed (expressions, types, shapes): bounded by MAX_NESTING_DEPTH. */
  private nesting = 0;

  constructor(
    protected readonly source: string,
    protected readonly errorClass: QueryErrorClass = EdgeQLSyntaxError,
  ) {
    this.tokens = tokenize(source, errorClass);
  }

  // =============================================================================================
  // Entry points

  /** A script: statements separated by `;`. */
  parseScript(): Statement[] {
    const statements: Statement[] = [];
    for (;;) {
      while (this.eat(';')) {
        // empty statements are allowed
      }
      if (this.at('EOF')) return statements;
      statements.push(this.parseTopStatement());
      if (this.at('EOF')) return statements;
      if (!this.eat(';')) this.statementEndError();
    }
  }

  /** One expression or query, and nothing after it. */
  parseStandaloneExpression(): Expr {
    const expr = this.parseGenExpr();
    if (!this.at('EOF')) this.statementEndError();
    return expr;
  }

  /** One type expression, and nothing after it. */
  parseStandaloneType(): TypeExpr {
    const type = this.parseFullTypeExpr();
    if (!this.at('EOF')) this.unexpected();
    return type;
  }

  // =============================================================================================
  // Token access

  protected peek(offset = 0): Token {
    const tokens = this.tokens;
    return (tokens[this.index + offset] ?? tokens[tokens.length - 1]) as Token;
  }

  protected previous(): Token {
    return (this.tokens[this.index - 1] ?? this.tokens[0]) as Token;
  }

  protected advance(): Token {
    const token = this.peek();
    if (token.kind !== 'EOF') this.index++;
    return token;
  }

  protected at(kind: TokenKind, offset = 0): boolean {
    return this.peek(offset).kind === kind;
  }

  protected atKeyword(keyword: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token.kind === 'Keyword' && token.value === keyword;
  }

  protected eat(kind: TokenKind): Token | undefined {
    return this.at(kind) ? this.advance() : undefined;
  }

  protected eatKeyword(keyword: string): Token | undefined {
    return this.atKeyword(keyword) ? this.advance() : undefined;
  }

  protected expect(kind: TokenKind, hint?: string): Token {
    if (this.at(kind)) return this.advance();
    if (this.at('EOF') || kind === ')' || kind === ']' || kind === '}' || kind === ';') {
      return this.missing(`'${kind}'`, hint);
    }
    return this.unexpected(this.peek(), hint ?? `expected '${kind}'`);
  }

  protected expectKeyword(keyword: string, hint?: string): Token {
    if (this.atKeyword(keyword)) return this.advance();
    const token = this.peek();
    if (token.kind === 'Ident' && suggest(token.value, [keyword]) === keyword) {
      return this.unexpected(token, didYouMean(keyword));
    }
    if (token.kind === 'EOF') return this.missing(`keyword '${keyword.toUpperCase()}'`, hint);
    return this.unexpected(token, hint ?? `expected '${keyword}'`);
  }

  protected tokenSpan(token: Token): Span {
    return { start: token.start, end: token.end };
  }

  protected spanFrom(start: Position): Span {
    return { start, end: this.previous().end };
  }

  // =============================================================================================
  // Errors

  /** Runs one nested construct, refusing to go past MAX_NESTING_DEPTH (no stack overflow). */
  protected nested<T>(parse: () => T): T {
    if (this.nesting >= MAX_NESTING_DEPTH) throw nestingError(this.errorClass, this.peek().start);
    this.nesting++;
    const result = parse();
    this.nesting--;
    return result;
  }

  protected fail(message: string, at: Position, hint?: string): never {
    throw new this.errorClass(message, {
      position: { line: at.line, column: at.column },
      ...(hint === undefined ? {} : { hint }),
    });
  }

  /** `Unexpected 'x'` at the token. */
  protected unexpected(token: Token = this.peek(), hint?: string): never {
    return this.fail(
      `Unexpected ${describeToken(token)}`,
      token.start,
      this.operatorHint(token) ?? hint ?? this.keywordHint(token),
    );
  }

  /** `Missing x` just after the last consumed token. */
  protected missing(what: string, hint?: string): never {
    const at = this.index === 0 ? this.peek().start : this.previous().end;
    return this.fail(`Missing ${what}`, at, hint);
  }

  /** Hints for operators people bring from other languages. */
  private operatorHint(token: Token): string | undefined {
    const prev = this.index > 0 ? this.previous() : undefined;
    if (token.kind === '=' && prev?.kind === '=') return "use '=' to compare; there is no '=='";
    if (token.kind === '|' && this.at('|', 1))
      return "use 'or' for a logical or, '++' to concatenate";
    if (token.kind === '&' && this.at('&', 1)) return "use 'and' for a logical and";
    return undefined;
  }

  /** A misspelt clause keyword. */
  private keywordHint(token: Token): string | undefined {
    if (token.kind === 'Ident') {
      const keyword = suggest(token.value, CLAUSE_KEYWORDS);
      if (keyword) return didYouMean(keyword);
    }
    return undefined;
  }

  /** The error for a name position holding something else. */
  protected nameError(token: Token, what = 'a name'): never {
    if (token.kind === 'Keyword' && !token.value.startsWith('__')) {
      return this.unexpected(
        token,
        `'${token.text}' is a reserved keyword; use a different name or quote it with backticks: \`${token.text}\``,
      );
    }
    return this.unexpected(token, `expected ${what}`);
  }

  /** After a statement: `;` or the end was expected. */
  protected statementEndError(): never {
    const token = this.peek();
    if (
      this.isQueryKeyword(token) ||
      (token.kind === 'Ident' && suggest(token.value, STATEMENT_KEYWORDS))
    ) {
      return this.missing("';'", "separate statements with ';'");
    }
    return this.unexpected(token);
  }

  /** Inside `( )`, `[ ]`, `{ }` lists: a separator or the closing bracket was expected. */
  protected listError(close: Closing): never {
    const token = this.peek();
    if (token.kind === 'EOF') return this.missing(`'${close}'`);
    if (token.kind === 'Ident') {
      const keyword = suggest(token.value, CLAUSE_KEYWORDS);
      if (keyword) return this.unexpected(token, didYouMean(keyword));
    }
    if (this.canStartExpression(token)) return this.missing("','");
    return this.unexpected(token);
  }

  // =============================================================================================
  // Token classes

  protected isQueryKeyword(token: Token): boolean {
    return token.kind === 'Keyword' && QUERY_START.has(token.value);
  }

  /** Gel's `Identifier`: a plain or quoted name, or an unreserved keyword. */
  protected isIdentifierToken(token: Token): boolean {
    return (
      token.kind === 'Ident' ||
      token.kind === 'BacktickName' ||
      (token.kind === 'Keyword' && UNRESERVED_KEYWORDS.has(token.value))
    );
  }

  /** Gel's `PtrIdentifier`: an identifier or a partially reserved keyword (`union`). */
  protected isPtrIdentifierToken(token: Token): boolean {
    return (
      this.isIdentifierToken(token) ||
      (token.kind === 'Keyword' && PARTIAL_RESERVED_KEYWORDS.has(token.value))
    );
  }

  /** Gel's `AnyIdentifier`: any name, reserved keywords included. */
  protected isAnyIdentifierToken(token: Token): boolean {
    return token.kind === 'Ident' || token.kind === 'BacktickName' || token.kind === 'Keyword';
  }

  /** The name a name token stands for: keywords keep their spelling. */
  protected nameOf(token: Token): string {
    return token.kind === 'Keyword' ? token.text : token.value;
  }

  protected canStartExpression(token: Token): boolean {
    switch (token.kind) {
      case 'IntConst':
      case 'FloatConst':
      case 'BigIntConst':
      case 'DecimalConst':
      case 'Str':
      case 'StrInterpStart':
      case 'Bytes':
      case 'Parameter':
      case 'Ident':
      case 'BacktickName':
      case '(':
      case '[':
      case '{':
      case '.':
      case '.<':
      case '.?>':
      case '@':
      case '<':
      case '-':
      case '+':
        return true;
      case 'Keyword':
        return (
          UNRESERVED_KEYWORDS.has(token.value) ||
          EXPRESSION_KEYWORDS.has(token.value) ||
          QUERY_START.has(token.value)
        );
      default:
        return false;
    }
  }

  // =============================================================================================
  // Names

  protected parseIdentifier(what = 'a name'): string {
    const token = this.peek();
    if (this.isIdentifierToken(token)) return this.nameOf(this.advance());
    return this.nameError(token, what);
  }

  protected parsePtrIdentifier(what = 'a name'): string {
    const token = this.peek();
    if (this.isPtrIdentifierToken(token)) return this.nameOf(this.advance());
    return this.nameError(token, what);
  }

  protected parseAnyIdentifier(what = 'a name'): string {
    const token = this.peek();
    if (!this.isAnyIdentifierToken(token)) return this.nameError(token, what);
    if (token.kind === 'Keyword' && token.value.startsWith('__') && token.value.endsWith('__')) {
      return this.fail('identifiers surrounded by double underscores are forbidden', token.start);
    }
    return this.nameOf(this.advance());
  }

  /**
   * `name`, `module::name`, `a::b::name`, `__std__::name`. With `ptr`, the first part may be a
   * partially reserved keyword (Gel's `PtrNodeName`, used for type names).
   */
  protected parseNodeName(ptr = false): ObjectRef {
    const start = this.peek().start;
    const parts: string[] = [];
    if (this.atKeyword('__std__') && this.at('::', 1)) {
      parts.push(this.advance().value);
    } else {
      parts.push(ptr ? this.parsePtrIdentifier() : this.parseIdentifier());
    }
    while (this.eat('::')) parts.push(this.parseAnyIdentifier());
    const name = parts.pop() as string;
    return create('ObjectRef', this.spanFrom(start), {
      module: parts.length > 0 ? parts.join('::') : null,
      name,
    });
  }

  /** A module name: `default`, `std::cal`, `my.pkg`. */
  protected parseModuleName(): string {
    let name = this.parseDotName();
    while (this.eat('::')) name += `::${this.parseDotName()}`;
    return name;
  }

  private parseDotName(): string {
    let name = this.parseAnyIdentifier('a module name');
    while (this.at('.') && this.isAnyIdentifierToken(this.peek(1))) {
      this.advance();
      name += `.${this.parseAnyIdentifier('a module name')}`;
    }
    return name;
  }

  // =============================================================================================
  // Types

  /** A full type expression: `str`, `array<str>`, `A | B`, `typeof x`, `(A & B)`. */
  parseFullTypeExpr(): TypeExpr {
    return this.nested(() => this.parseTypeUnion(true));
  }

  /**
   * A type after `is` or `introspect`, where `<` would be ambiguous: collection types must be
   * parenthesized there (`x is (array<str>)`), as in Gel.
   */
  protected parseSimpleTypeExpr(): TypeExpr {
    return this.nested(() => this.parseTypeUnion(false));
  }

  private parseTypeUnion(full: boolean): TypeExpr {
    const start = this.peek().start;
    let left = this.parseTypeIntersect(full);
    while (this.eat('|')) {
      const right = this.parseTypeIntersect(full);
      left = create('TypeOp', this.spanFrom(start), { op: '|', left, right });
    }
    return left;
  }

  private parseTypeIntersect(full: boolean): TypeExpr {
    const start = this.peek().start;
    let left = this.parseTypeAtom(full);
    while (this.eat('&')) {
      const right = this.parseTypeAtom(full);
      left = create('TypeOp', this.spanFrom(start), { op: '&', left, right });
    }
    return left;
  }

  private parseTypeAtom(full: boolean): TypeExpr {
    const start = this.peek().start;
    if (this.eat('(')) {
      const inner = this.parseFullTypeExpr();
      this.expect(')');
      return inner;
    }
    if (this.eatKeyword('typeof')) {
      const expr = this.parseExpr(Precedence.typeof + 1);
      return create('TypeOf', this.spanFrom(start), { expr });
    }
    const token = this.peek();
    if (
      token.kind === 'Keyword' &&
      (token.value === 'anytype' || token.value === 'anytuple' || token.value === 'anyobject')
    ) {
      this.advance();
      const name = create('ObjectRef', this.tokenSpan(token), { module: null, name: token.value });
      return create('TypeName', this.spanFrom(start), { name, subtypes: [] });
    }
    if (!this.isPtrIdentifierToken(token) && !this.atKeyword('__std__')) {
      return this.nameError(token, 'a type');
    }
    const name = this.parseNodeName(true);
    let subtypes: TypeSubtype[] = [];
    // Quoted subtypes name enum values (`enum<'a', 'b'>`); elsewhere they are not types.
    if (full && this.at('<')) subtypes = this.parseTypeArguments(name.name === 'enum');
    return create('TypeName', this.spanFrom(start), { name, subtypes });
  }

  protected parseTypeArguments(quotedNames = true): TypeSubtype[] {
    const open = this.advance();
    if (this.at('>')) {
      return this.fail('parametrized type must have at least one argument', open.start);
    }
    const subtypes: TypeSubtype[] = [];
    let named = 0;
    for (;;) {
      const start = this.peek().start;
      const token = this.peek();
      if (token.kind === 'Str' && !quotedNames) {
        return this.fail('Unexpected type expression', token.start);
      }
      if (token.kind === 'Str') {
        // `enum<'RED', 'GREEN'>`: Gel reads a quoted value as the name it spells, so the
        // subtype is the same TypeName `enum<RED, GREEN>` gives (printed back as a name).
        this.advance();
        const name = create('ObjectRef', this.tokenSpan(token), {
          module: null,
          name: token.value,
        });
        subtypes.push(create('TypeName', this.tokenSpan(token), { name, subtypes: [] }));
      } else if (this.isIdentifierToken(token) && this.at(':', 1)) {
        const name = this.parseIdentifier();
        this.advance();
        const type = this.parseFullTypeExpr();
        subtypes.push(create('NamedSubtype', this.spanFrom(start), { name, type }));
        named++;
      } else {
        subtypes.push(this.parseFullTypeExpr());
      }
      if (this.eat(',')) {
        if (this.eat('>')) break;
        continue;
      }
      if (this.eat('>')) break;
      if (this.at('EOF')) return this.missing("'>'");
      return this.unexpected();
    }
    if (named > 0 && named < subtypes.length) {
      return this.fail(
        'mixing named and unnamed subtype declarations is not supported',
        open.start,
      );
    }
    return subtypes;
  }

  // =============================================================================================
  // Expressions

  /** An expression, or a query (Gel's `GenExpr`): list elements, arguments, shape values. */
  parseGenExpr(): Expr {
    if (this.isQueryKeyword(this.peek())) return this.parseQuery();
    return this.parseExpr();
  }

  /** An expression whose operators all bind at least as tightly as `minPrecedence`. */
  parseExpr(minPrecedence: number = Precedence.lowest): Expr {
    return this.nested(() => {
      const start = this.peek().start;
      const left = this.parsePrefix();
      return this.parseOperators(left, start, minPrecedence);
    });
  }

  private parseOperators(first: Expr, start: Position, minPrecedence: number): Expr {
    let left = first;
    let nonassoc = -1;
    for (;;) {
      const token = this.peek();
      const postfix = this.postfixPrecedence(token);
      if (postfix > 0) {
        if (postfix < minPrecedence) return left;
        left = this.parsePostfix(left, start);
        nonassoc = -1;
        continue;
      }
      const infix = this.peekInfix();
      if (!infix || infix.info.precedence < minPrecedence) return left;
      const precedence = infix.info.precedence;
      if (precedence === nonassoc) return this.unexpected(token);
      for (let k = 0; k < infix.length; k++) this.advance();
      if (infix.op === 'if') {
        const condition = this.parseExpr();
        this.expectKeyword('else');
        const elseExpr = this.parseExpr(precedence);
        left = create('IfElse', this.spanFrom(start), {
          condition,
          ifExpr: left,
          elseExpr,
          infix: true,
        });
      } else if (infix.op === 'is' || infix.op === 'is not') {
        const type = this.parseSimpleTypeExpr();
        left = create('IsOp', this.spanFrom(start), {
          left,
          negated: infix.op === 'is not',
          type,
        });
      } else {
        const right = this.parseExpr(infix.info.assoc === 'right' ? precedence : precedence + 1);
        left = create('BinOp', this.spanFrom(start), { op: infix.op, left, right });
      }
      nonassoc = infix.info.assoc === 'nonassoc' ? precedence : -1;
    }
  }

  private postfixPrecedence(token: Token): number {
    switch (token.kind) {
      case '.':
      case '.<':
      case '.?>':
      case '@':
        return Precedence.dot;
      case '[':
        return Precedence.bracket;
      case '{':
        return Precedence.shape;
      default:
        return 0;
    }
  }

  private peekInfix(): InfixOperator | undefined {
    const token = this.peek();
    switch (token.kind) {
      case '=':
      case '!=':
      case '<':
      case '>':
      case '<=':
      case '>=':
      case '?=':
      case '?!=':
      case '+':
      case '-':
      case '++':
      case '*':
      case '/':
      case '//':
      case '%':
      case '??':
      case '^':
        return { op: token.kind, info: BINARY_OPERATORS[token.kind], length: 1 };
      case 'Keyword':
        switch (token.value) {
          case 'union':
          case 'except':
          case 'intersect':
          case 'or':
          case 'and':
          case 'like':
          case 'ilike':
          case 'in':
            return { op: token.value, info: BINARY_OPERATORS[token.value], length: 1 };
          case 'not': {
            const next = this.peek(1);
            if (
              next.kind === 'Keyword' &&
              (next.value === 'like' || next.value === 'ilike' || next.value === 'in')
            ) {
              const op = `not ${next.value}` as const;
              return { op, info: BINARY_OPERATORS[op], length: 2 };
            }
            return undefined;
          }
          case 'is':
            return this.atKeyword('not', 1)
              ? { op: 'is not', info: IS_OPERATOR, length: 2 }
              : { op: 'is', info: IS_OPERATOR, length: 1 };
          case 'if':
            return { op: 'if', info: IF_ELSE_OPERATOR, length: 1 };
          default:
            return undefined;
        }
      default:
        return undefined;
    }
  }

  private parsePostfix(left: Expr, start: Position): Expr {
    const token = this.advance();
    switch (token.kind) {
      case '.':
      case '.<':
      case '.?>':
      case '@':
        return this.appendStep(left, this.parsePtrStep(token), start);
      case '[': {
        if (this.atKeyword('is')) {
          return this.appendStep(left, this.parseTypeIntersectionRest(token), start);
        }
        if (this.eat(':')) {
          const stop = this.parseExpr();
          this.expect(']');
          return create('Slice', this.spanFrom(start), { subject: left, start: null, stop });
        }
        const first = this.parseExpr();
        if (this.eat(':')) {
          const stop = this.at(']') ? null : this.parseExpr();
          this.expect(']');
          return create('Slice', this.spanFrom(start), { subject: left, start: first, stop });
        }
        if (!this.eat(']')) {
          if (this.canStartExpression(this.peek()) && !this.at('EOF')) {
            return this.missing("':'", 'a slice is written x[start:stop]');
          }
          this.expect(']');
        }
        return create('Index', this.spanFrom(start), { subject: left, index: first });
      }
      case '{': {
        const elements = this.parseShapeElements(false);
        return create('Shape', this.spanFrom(start), { subject: left, elements });
      }
      default:
        return this.unexpected(token);
    }
  }

  /** After `.`, `.<`, `.?>` or `@`: the pointer name (or a tuple index after `.`). */
  private parsePtrStep(via: Token): Ptr {
    const token = this.peek();
    let name: string;
    if (via.kind === '.' && token.kind === 'IntConst') {
      name = this.advance().value;
    } else if (via.kind !== '@' && token.kind === 'Keyword' && token.value === '__type__') {
      name = this.advance().value;
    } else if (this.isPtrIdentifierToken(token)) {
      name = this.nameOf(this.advance());
    } else {
      return this.nameError(token, 'a link or property name');
    }
    return create('Ptr', this.spanFrom(via.start), {
      name,
      via: via.kind as Ptr['via'],
    });
  }

  /** After `[` with `is` next: `is Type]`. */
  private parseTypeIntersectionRest(open: Token): TypeIntersection {
    this.advance(); // is
    const type = this.parseFullTypeExpr();
    this.expect(']');
    return create('TypeIntersection', this.spanFrom(open.start), { type });
  }

  protected parseTypeIntersection(): TypeIntersection {
    const open = this.expect('[');
    if (!this.atKeyword('is')) return this.unexpected(this.peek(), "expected '[is Type]'");
    return this.parseTypeIntersectionRest(open);
  }

  private appendStep(left: Expr, step: PathStep, start: Position): Path {
    if (left.kind === 'Path') {
      return create('Path', this.spanFrom(start), {
        subject: left.subject,
        steps: [...left.steps, step],
      });
    }
    return create('Path', this.spanFrom(start), { subject: left, steps: [step] });
  }

  private parsePrefix(): Expr {
    const token = this.peek();
    const start = token.start;
    switch (token.kind) {
      case '-':
      case '+': {
        this.advance();
        const operand = this.parseExpr(UNARY_OPERATORS[token.kind]);
        if (
          token.kind === '-' &&
          operand.kind === 'Constant' &&
          operand.scalar !== 'str' &&
          operand.scalar !== 'bool' &&
          !operand.value.startsWith('-')
        ) {
          return create('Constant', this.spanFrom(start), {
            scalar: operand.scalar,
            value: `-${operand.value}`,
          });
        }
        return create('UnaryOp', this.spanFrom(start), { op: token.kind, operand });
      }
      case '<':
        return this.parseCast(false);
      case 'Keyword':
        switch (token.value) {
          case 'not':
          case 'exists':
          case 'distinct': {
            this.advance();
            const operand = this.parseExpr(UNARY_OPERATORS[token.value]);
            return create('UnaryOp', this.spanFrom(start), { op: token.value, operand });
          }
          case 'detached': {
            this.advance();
            const expr = this.parseExpr(Precedence.detached);
            return create('Detached', this.spanFrom(start), { expr });
          }
          case 'global': {
            this.advance();
            const name = this.parseNodeName();
            return create('GlobalRef', this.spanFrom(start), { name });
          }
          case 'introspect': {
            this.advance();
            const type = this.parseSimpleTypeExpr();
            return create('Introspect', this.spanFrom(start), { type });
          }
          case 'if':
            return this.parseIfThenElse();
          default:
            break;
        }
        break;
      default:
        break;
    }
    return this.parsePrimary();
  }

  /** `<[optional|required] type>expr`; `atomic` for a `for` iterator. */
  private parseCast(atomic: boolean): Expr {
    const start = this.advance().start; // <
    let cardinality: 'optional' | 'required' | null = null;
    if (this.atKeyword('optional')) {
      this.advance();
      cardinality = 'optional';
    } else if (
      this.atKeyword('required') &&
      ['Ident', 'BacktickName', 'Keyword', '('].includes(this.peek(1).kind)
    ) {
      // `<required str>` is a modifier; in `<required>`, `<required | T>` it names a type.
      this.advance();
      cardinality = 'required';
    }
    const type = this.parseFullTypeExpr();
    this.expect('>');
    const expr = atomic ? this.parseAtomicExpr() : this.parseExpr(Precedence.typecast);
    return create('TypeCast', this.spanFrom(start), { type, expr, cardinality });
  }

  /** `if c then a else b`. */
  protected parseIfThenElse(): IfElse {
    const start = this.advance().start; // if
    const condition = this.parseExpr();
    this.expectKeyword('then');
    const ifExpr = this.parseExpr();
    this.expectKeyword('else');
    const elseExpr = this.parseExpr(IF_ELSE_OPERATOR.precedence);
    return create('IfElse', this.spanFrom(start), { condition, ifExpr, elseExpr, infix: false });
  }

  /** Literals, names, calls, parenthesized forms, collections, partial paths, anchors. */
  private parsePrimary(): Expr {
    const token = this.peek();
    const start = token.start;
    switch (token.kind) {
      case 'IntConst':
        return this.constant('int64');
      case 'FloatConst':
        return this.constant('float64');
      case 'BigIntConst':
        return this.constant('bigint');
      case 'DecimalConst':
        return this.constant('decimal');
      case 'Str':
        return this.constant('str');
      case 'StrInterpStart':
        return this.parseStringInterpolation();
      case 'Bytes':
        this.advance();
        return create('BytesConstant', this.tokenSpan(token), {
          value: token.bytes ?? new Uint8Array(),
        });
      case 'Parameter':
        this.advance();
        return create('Parameter', this.tokenSpan(token), { name: token.value });
      case '(':
        return this.parseParenthesized();
      case '[':
        if (this.atKeyword('is', 1)) {
          const step = this.parseTypeIntersection();
          return create('Path', this.spanFrom(start), { subject: null, steps: [step] });
        }
        return this.parseArray();
      case '{':
        return this.parseBraces();
      case '.':
      case '.<':
      case '.?>':
      case '@': {
        this.advance();
        const step = this.parsePtrStep(token);
        return create('Path', this.spanFrom(start), { subject: null, steps: [step] });
      }
      case 'Ident':
      case 'BacktickName':
        return this.parseNameExpr();
      case 'Keyword': {
        const keyword = token.value;
        if (keyword === 'true' || keyword === 'false') {
          this.advance();
          return create('Constant', this.tokenSpan(token), { scalar: 'bool', value: keyword });
        }
        if (ANCHORS.has(keyword)) {
          this.advance();
          return create('Anchor', this.tokenSpan(token), { name: keyword as AnchorName });
        }
        if (keyword === '__std__' || UNRESERVED_KEYWORDS.has(keyword)) return this.parseNameExpr();
        if (QUERY_START.has(keyword)) {
          return this.unexpected(
            token,
            `a subquery used as an expression must be in parentheses: (${keyword} ...)`,
          );
        }
        if (RESERVED_KEYWORDS.has(keyword) || PARTIAL_RESERVED_KEYWORDS.has(keyword)) {
          return this.nameError(token, 'an expression');
        }
        return this.unexpected(token);
      }
      default:
        return this.unexpected(token, 'expected an expression');
    }
  }

  /**
   * `"a \(x) b"` (Gel 6): each interpolated expression is any expression, cast to `str`; the
   * string is Gel's own reading of it, `std::array_join(['a ', <std::str>x, ' b'], '')` (so an
   * empty expression makes the whole string empty, as any element-wise call does).
   */
  private parseStringInterpolation(): Expr {
    const first = this.advance();
    const str = (token: Token): Expr =>
      create('Constant', this.tokenSpan(token), { scalar: 'str', value: token.value });
    const stdRef = (name: string, span: Span): ObjectRef =>
      create('ObjectRef', span, { module: 'std', name });
    const parts: Expr[] = [str(first)];
    for (;;) {
      const exprStart = this.peek().start;
      const expr = this.parseExpr();
      const span = this.spanFrom(exprStart);
      const type = create('TypeName', span, { name: stdRef('str', span), subtypes: [] });
      parts.push(create('TypeCast', span, { type, expr, cardinality: null }));
      const next = this.peek();
      if (next.kind !== 'StrInterpCont' && next.kind !== 'StrInterpEnd') {
        return this.unexpected(next, 'expected `)` to end the interpolated expression');
      }
      this.advance();
      parts.push(str(next));
      if (next.kind === 'StrInterpEnd') break;
    }
    const span = this.spanFrom(first.start);
    return create('FunctionCall', span, {
      func: stdRef('array_join', span),
      args: [
        create('ArrayLiteral', span, { elements: parts }),
        create('Constant', span, { scalar: 'str', value: '' }),
      ],
      namedArgs: [],
    });
  }

  private constant(scalar: ConstantScalar): Expr {
    const token = this.advance();
    return create('Constant', this.tokenSpan(token), { scalar, value: token.value });
  }

  /** A name, or a function call when `(` follows. */
  private parseNameExpr(): Expr {
    const start = this.peek().start;
    const name = this.parseNodeName();
    if (!this.at('(')) return name;
    this.advance();
    return this.parseCallRest(name, start);
  }

  private parseCallRest(func: ObjectRef, start: Position): FunctionCall {
    const args: Expr[] = [];
    const namedArgs: NamedArg[] = [];
    let lastNamed: string | null = null;
    while (!this.eat(')')) {
      const token = this.peek();
      if (token.kind === 'Parameter' && this.at(':=', 1)) {
        return this.fail(
          /^\d+$/.test(token.value)
            ? 'numeric named parameters are not supported'
            : `named parameters do not need a '$' prefix, rewrite as '${token.value} := ...'`,
          token.start,
        );
      }
      if (this.isAnyIdentifierToken(token) && this.at(':=', 1)) {
        const name = this.parseAnyIdentifier();
        this.advance(); // :=
        if (namedArgs.some((arg) => arg.name === name)) {
          return this.fail(`duplicate named argument \`${name}\``, token.start);
        }
        const value = this.parseArgument();
        namedArgs.push(create('NamedArg', this.spanFrom(token.start), { name, value }));
        lastNamed = name;
      } else {
        if (lastNamed !== null) {
          return this.fail(
            `positional argument after named argument \`${lastNamed}\``,
            token.start,
          );
        }
        args.push(this.parseArgument());
      }
      if (this.eat(',')) continue;
      if (this.at(')')) continue;
      return this.listError(')');
    }
    return create('FunctionCall', this.spanFrom(start), { func, args, namedArgs });
  }

  /** A call argument: a query, or an expression with optional `filter` / `order by`. */
  protected parseArgument(): Expr {
    if (this.isQueryKeyword(this.peek())) return this.parseQuery();
    const start = this.peek().start;
    const expr = this.parseExpr();
    if (!this.atKeyword('filter') && !this.atOrderBy()) return expr;
    const filter = this.parseFilter();
    const orderBy = this.parseOrderBy();
    return create('SelectQuery', this.spanFrom(start), {
      aliases: [],
      result: expr,
      resultAlias: null,
      filter,
      orderBy,
      offset: null,
      limit: null,
      implicit: true,
    });
  }

  /** `()`, `(expr)`, `(a, b)`, `(a,)`, `(a := 1, b := 2)`. */
  private parseParenthesized(): Expr {
    const start = this.advance().start; // (
    if (this.eat(')')) return create('TupleLiteral', this.spanFrom(start), { elements: [] });
    if (this.isIdentifierToken(this.peek()) && this.at(':=', 1)) return this.parseNamedTuple(start);
    const first = this.parseGenExpr();
    if (this.eat(')')) return first;
    // A statement in parentheses may end with `;`, as in Gel: `select (group X by .a;) {...}`.
    if (isQuery(first) && this.at(';') && this.at(')', 1)) {
      this.advance();
      this.advance();
      return first;
    }
    if (!this.at(',')) return this.listError(')');
    const elements: Expr[] = [first];
    while (this.eat(',')) {
      if (this.at(')')) break;
      elements.push(this.parseGenExpr());
    }
    if (!this.eat(')')) return this.listError(')');
    return create('TupleLiteral', this.spanFrom(start), { elements });
  }

  private parseNamedTuple(start: Position): Expr {
    const elements = [];
    for (;;) {
      const elementStart = this.peek().start;
      const name = this.parseIdentifier();
      if (!this.eat(':='))
        return this.missing("':='", 'every element of a named tuple is name := value');
      const value = this.parseGenExpr();
      elements.push(create('TupleElement', this.spanFrom(elementStart), { name, value }));
      if (this.eat(',')) {
        if (this.eat(')')) break;
        continue;
      }
      if (this.eat(')')) break;
      return this.listError(')');
    }
    return create('NamedTupleLiteral', this.spanFrom(start), { elements });
  }

  private parseArray(): Expr {
    const start = this.advance().start; // [
    const elements = this.parseExprList(']');
    return create('ArrayLiteral', this.spanFrom(start), { elements });
  }

  /** `{...}`: a free shape when it starts with `name :=`, else a set. */
  private parseBraces(): Expr {
    const start = this.peek().start;
    if (this.looksLikeFreeShape()) {
      this.advance();
      const elements = this.parseShapeElements(true);
      return create('Shape', this.spanFrom(start), { subject: null, elements });
    }
    this.advance();
    const elements = this.parseExprList('}');
    return create('SetLiteral', this.spanFrom(start), { elements });
  }

  private looksLikeFreeShape(): boolean {
    let offset = 1;
    for (let quals = 0; quals < 2; quals++) {
      if (this.isQualifierAt(offset)) offset++;
    }
    const token = this.peek(offset);
    return (
      (this.isIdentifierToken(token) || (token.kind === 'Keyword' && token.value === '__type__')) &&
      this.at(':=', offset + 1)
    );
  }

  /** Elements up to `close` (consumed), separated by `,`, trailing comma allowed. */
  private parseExprList(close: ']' | '}'): Expr[] {
    const elements: Expr[] = [];
    while (!this.eat(close)) {
      elements.push(this.parseGenExpr());
      if (this.eat(',')) continue;
      if (this.at(close)) continue;
      return this.listError(close);
    }
    return elements;
  }

  // =============================================================================================
  // Shapes

  /** A cardinality or optionality qualifier at `offset` that precedes a pointer name. */
  private isQualifierAt(offset: number): boolean {
    const token = this.peek(offset);
    if (
      token.kind !== 'Keyword' ||
      !(
        token.value === 'required' ||
        token.value === 'optional' ||
        token.value === 'single' ||
        token.value === 'multi'
      )
    ) {
      return false;
    }
    const next = this.peek(offset + 1);
    if (next.kind === 'Keyword') {
      if (next.value === 'order' && this.atKeyword('by', offset + 2)) return false;
      if ((token.value === 'required' || token.value === 'optional') && next.value === 'single') {
        // `single` is reserved, so never a name: a qualifier when it is one itself.
        return this.isQualifierAt(offset + 1);
      }
      if (next.value === '__type__') return true;
    }
    return this.isPtrIdentifierToken(next) || next.kind === '@';
  }

  /** After `{`: shape elements up to and including `}`. */
  protected parseShapeElements(free: boolean): ShapeElement[] {
    return this.nested(() => this.parseShapeElementList(free));
  }

  private parseShapeElementList(free: boolean): ShapeElement[] {
    const elements: ShapeElement[] = [];
    while (!this.eat('}')) {
      elements.push(this.parseShapeElement(free));
      if (this.eat(',')) continue;
      if (this.at('}')) continue;
      return this.shapeListError();
    }
    return elements;
  }

  private shapeListError(): never {
    const token = this.peek();
    const next = this.peek(1);
    if (token.kind === '=') {
      return this.unexpected(token, "use ':=' to give a shape element a value");
    }
    if ((token.kind === '*' || token.kind === '**') && (next.kind === ',' || next.kind === '}')) {
      return this.missing("','");
    }
    if (this.peekInfix() && token.kind !== '<') return this.missing("':='");
    return this.listError('}');
  }

  private parseShapeElement(free: boolean): ShapeElement {
    const start = this.peek().start;
    let required: boolean | null = null;
    let cardinality: 'single' | 'multi' | null = null;
    if ((this.atKeyword('required') || this.atKeyword('optional')) && this.isQualifierAt(0)) {
      required = this.advance().value === 'required';
    }
    if ((this.atKeyword('single') || this.atKeyword('multi')) && this.isQualifierAt(0)) {
      cardinality = this.advance().value as 'single' | 'multi';
    }
    const qualified = required !== null || cardinality !== null;

    if (free || qualified) {
      const nameToken = this.peek();
      let ptr: Ptr;
      if (!free && this.eat('@')) {
        const name = this.parsePtrIdentifier();
        ptr = create('Ptr', this.spanFrom(nameToken.start), { name, via: '@' });
      } else {
        const name = this.parseStepName(free);
        ptr = create('Ptr', this.spanFrom(nameToken.start), { name, via: '.' });
      }
      if (!this.eat(':=')) {
        return this.missing(
          "':='",
          free ? 'a free shape has only computed elements: name := value' : undefined,
        );
      }
      const compExpr = this.parseGenExpr();
      return this.shapeElement(start, [ptr], required, cardinality, ':=', compExpr);
    }

    const path = this.parseShapePath();
    if (this.at(':=') || this.at('+=') || this.at('-=')) {
      const single = path.length === 1 && path[0]?.kind === 'Ptr';
      if (!single)
        return this.unexpected(this.peek(), 'only a plain name can be assigned in a shape');
      const operation = this.advance().kind as ':=' | '+=' | '-=';
      const compExpr = this.parseGenExpr();
      return this.shapeElement(start, path, null, null, operation, compExpr);
    }
    let elements: ShapeElement[] | null = null;
    if (this.eat(':')) {
      if (!this.at('{')) return this.unexpected(this.peek(), 'expected a sub-shape: name: { ... }');
      this.advance();
      elements = this.parseShapeElements(false);
    }
    const filter = this.parseFilter();
    const orderBy = this.parseOrderBy();
    const { offset, limit } = this.parseOffsetLimit();
    return create('ShapeElement', this.spanFrom(start), {
      path,
      required: null,
      cardinality: null,
      operation: null,
      compExpr: null,
      elements,
      filter,
      orderBy,
      offset,
      limit,
    });
  }

  private shapeElement(
    start: Position,
    path: ShapePathStep[],
    required: boolean | null,
    cardinality: 'single' | 'multi' | null,
    operation: ':=' | '+=' | '-=',
    compExpr: Expr,
  ): ShapeElement {
    return create('ShapeElement', this.spanFrom(start), {
      path,
      required,
      cardinality,
      operation,
      compExpr,
      elements: null,
      filter: null,
      orderBy: [],
      offset: null,
      limit: null,
    });
  }

  /** A pointer name in a shape: a `PtrIdentifier` or `__type__` (free shapes: `Identifier`). */
  private parseStepName(free: boolean): string {
    const token = this.peek();
    if (token.kind === 'Keyword' && token.value === '__type__') return this.advance().value;
    return free ? this.parseIdentifier() : this.parsePtrIdentifier('a shape element');
  }

  /**
   * The path of a non-computed shape element: `name`, `@name`, `name[is T]`, `[is T].name`,
   * or a splat: `*`, `**`, `Type.*`, `mod::Type.**`, `[is T].*`, `Type[is T].*`, `(A | B).*`.
   */
  private parseShapePath(): ShapePathStep[] {
    const start = this.peek().start;
    const token = this.peek();
    if (token.kind === '*' || token.kind === '**') {
      this.advance();
      return [this.splat(start, token.kind, null, null)];
    }
    if (token.kind === '@') {
      this.advance();
      const name = this.parsePtrIdentifier();
      return [create('Ptr', this.spanFrom(start), { name, via: '@' })];
    }
    if (token.kind === '[') {
      const intersection = this.parseTypeIntersection();
      this.expect('.');
      if (this.at('*') || this.at('**')) {
        const depth = this.advance().kind as '*' | '**';
        return [this.splat(start, depth, null, intersection)];
      }
      const ptrStart = this.previous().start;
      const name = this.parseStepName(false);
      const ptr = create('Ptr', this.spanFrom(ptrStart), { name, via: '.' });
      const path: ShapePathStep[] = [intersection, ptr];
      if (this.at('[') && this.atKeyword('is', 1)) path.push(this.parseTypeIntersection());
      return path;
    }
    if (token.kind === '(') {
      this.advance();
      const type = this.parseFullTypeExpr();
      this.expect(')');
      const intersection = this.at('[') ? this.parseTypeIntersection() : null;
      this.expect('.');
      if (!this.at('*') && !this.at('**'))
        return this.unexpected(this.peek(), "expected '*' or '**'");
      const depth = this.advance().kind as '*' | '**';
      return [this.splat(start, depth, type, intersection)];
    }
    if (
      !(
        this.isPtrIdentifierToken(token) ||
        (token.kind === 'Keyword' && token.value === '__type__')
      )
    ) {
      return this.nameError(token, 'a shape element');
    }
    const name = this.parseStepName(false);
    if (this.at('::')) {
      // A qualified type name: only a splat can follow (`mod::Type.*`).
      const parts = [name];
      while (this.eat('::')) parts.push(this.parseAnyIdentifier());
      const typeName = this.typeNameFrom(start, parts);
      const intersection = this.at('[') ? this.parseTypeIntersection() : null;
      this.expect('.');
      if (!this.at('*') && !this.at('**'))
        return this.unexpected(this.peek(), "expected '*' or '**'");
      const depth = this.advance().kind as '*' | '**';
      return [this.splat(start, depth, typeName, intersection)];
    }
    if (this.at('.') && (this.at('*', 1) || this.at('**', 1))) {
      const typeName = this.typeNameFrom(start, [name]);
      this.advance();
      const depth = this.advance().kind as '*' | '**';
      return [this.splat(start, depth, typeName, null)];
    }
    const ptr = create('Ptr', this.spanFrom(start), { name, via: '.' });
    if (this.at('[') && this.atKeyword('is', 1)) {
      const intersection = this.parseTypeIntersection();
      if (this.at('.') && (this.at('*', 1) || this.at('**', 1))) {
        this.advance();
        const depth = this.advance().kind as '*' | '**';
        return [this.splat(start, depth, this.typeNameFrom(start, [name], ptr.span), intersection)];
      }
      return [ptr, intersection];
    }
    return [ptr];
  }

  private typeNameFrom(start: Position, parts: string[], span?: Span): TypeName {
    const nameSpan = span ?? this.spanFrom(start);
    const name = parts[parts.length - 1] as string;
    const ref = create('ObjectRef', nameSpan, {
      module: parts.length > 1 ? parts.slice(0, -1).join('::') : null,
      name,
    });
    return create('TypeName', nameSpan, { name: ref, subtypes: [] });
  }

  private splat(
    start: Position,
    depth: '*' | '**',
    type: TypeExpr | null,
    intersection: TypeIntersection | null,
  ): ShapePathStep {
    return create('Splat', this.spanFrom(start), {
      depth: depth === '*' ? 1 : 2,
      type,
      intersection,
    });
  }

  // =============================================================================================
  // Clauses

  protected parseFilter(): Expr | null {
    return this.eatKeyword('filter') ? this.parseExpr() : null;
  }

  private atOrderBy(): boolean {
    return this.atKeyword('order') && this.atKeyword('by', 1);
  }

  protected parseOrderBy(): SortExpr[] {
    if (!this.atOrderBy()) return [];
    this.advance();
    this.advance();
    const items: SortExpr[] = [];
    do {
      const start = this.peek().start;
      const expr = this.parseExpr();
      let direction: 'asc' | 'desc' | null = null;
      if (this.atKeyword('asc') || this.atKeyword('desc')) {
        direction = this.advance().value as 'asc' | 'desc';
      }
      let emptyOrder: 'first' | 'last' | null = null;
      if (this.eatKeyword('empty')) {
        if (!this.atKeyword('first') && !this.atKeyword('last')) {
          return this.unexpected(this.peek(), "write 'empty first' or 'empty last'");
        }
        emptyOrder = this.advance().value as 'first' | 'last';
      }
      items.push(create('SortExpr', this.spanFrom(start), { expr, direction, emptyOrder }));
    } while (this.eatKeyword('then'));
    return items;
  }

  protected parseOffsetLimit(): { offset: Expr | null; limit: Expr | null } {
    const offset = this.eatKeyword('offset') ? this.parseExpr() : null;
    const limit = this.eatKeyword('limit') ? this.parseExpr() : null;
    if (offset === null && limit !== null && this.atKeyword('offset')) {
      return this.unexpected(this.peek(), "'offset' comes before 'limit'");
    }
    return { offset, limit };
  }

  // =============================================================================================
  // Statements

  private parseTopStatement(): Statement {
    const token = this.peek();
    if (this.isQueryKeyword(token)) return this.parseQuery();
    if (this.atKeyword('if')) return this.parseIfThenElse();
    if (token.kind === 'Ident') {
      const keyword = suggest(token.value, STATEMENT_KEYWORDS);
      if (keyword) return this.unexpected(token, didYouMean(keyword));
    }
    if (token.kind === 'Keyword') {
      const reason = UNSUPPORTED_STATEMENTS[token.value];
      if (reason) return this.unexpected(token, reason);
    }
    if (this.canStartExpression(token)) {
      return this.fail(
        "Missing keyword 'SELECT'",
        token.start,
        'to compute an expression, write: select <expression>',
      );
    }
    return this.unexpected(token);
  }

  /** `[with ...] select|insert|update|delete|for|group ...`. */
  parseQuery(): Query {
    const start = this.peek().start;
    let aliases: WithItem[] = [];
    if (this.eatKeyword('with')) aliases = this.parseWithItems();
    const token = this.peek();
    if (token.kind === 'Keyword') {
      switch (token.value) {
        case 'select':
          return this.parseSelect(start, aliases);
        case 'insert':
          return this.parseInsert(start, aliases);
        case 'update':
          return this.parseUpdate(start, aliases);
        case 'delete':
          return this.parseDelete(start, aliases);
        case 'for':
          if (this.atKeyword('group', 1)) return this.parseInternalGroup(start, aliases);
          return this.parseFor(start, aliases);
        case 'group':
          return this.parseGroup(start, aliases);
        default:
          break;
      }
    }
    if (token.kind === 'Ident') {
      const keyword = suggest(token.value, STATEMENT_KEYWORDS);
      if (keyword) return this.unexpected(token, didYouMean(keyword));
    }
    if (token.kind === 'EOF') return this.missing("keyword 'SELECT'");
    return this.unexpected(token, 'expected a query: select, insert, update, delete, for or group');
  }

  private parseWithItems(): WithItem[] {
    const items: WithItem[] = [];
    for (;;) {
      items.push(this.parseWithItem());
      if (!this.eat(',')) return items;
      if (this.isQueryKeyword(this.peek()) && !this.atKeyword('with')) return items;
    }
  }

  private parseWithItem(): WithItem {
    const start = this.peek().start;
    if (this.eatKeyword('module')) {
      const module = this.parseModuleName();
      return create('ModuleAlias', this.spanFrom(start), { alias: null, module });
    }
    const alias = this.parseIdentifier('an alias');
    if (this.atKeyword('as') && this.atKeyword('module', 1)) {
      this.advance();
      this.advance();
      const module = this.parseModuleName();
      return create('ModuleAlias', this.spanFrom(start), { alias, module });
    }
    if (!this.eat(':=')) {
      if (this.at('=')) return this.unexpected(this.peek(), "use ':=' to define an alias");
      return this.missing("':='", 'with aliases are written name := expression');
    }
    const expr = this.parseGenExpr();
    return create('AliasedExpr', this.spanFrom(start), { alias, expr });
  }

  /** `name :=` ahead (an aliased select or group subject). */
  private parseOptionalAlias(): string | null {
    if (this.isIdentifierToken(this.peek()) && this.at(':=', 1)) {
      const alias = this.parseIdentifier();
      this.advance();
      return alias;
    }
    return null;
  }

  private parseSelect(start: Position, aliases: WithItem[]): SelectQuery {
    this.advance(); // select
    const resultAlias = this.parseOptionalAlias();
    const result = this.parseExpr();
    const filter = this.parseFilter();
    const orderBy = this.parseOrderBy();
    const { offset, limit } = this.parseOffsetLimit();
    return create('SelectQuery', this.spanFrom(start), {
      aliases,
      result,
      resultAlias,
      filter,
      orderBy,
      offset,
      limit,
      implicit: false,
    });
  }

  private parseInsert(start: Position, aliases: WithItem[]): InsertQuery {
    this.advance(); // insert
    const subjectToken = this.peek();
    const subject = this.parseExpr();
    let ref: ObjectRef;
    let shape: readonly ShapeElement[] = [];
    if (subject.kind === 'ObjectRef') {
      ref = subject;
    } else if (subject.kind === 'Shape' && subject.subject?.kind === 'ObjectRef') {
      ref = subject.subject;
      shape = subject.elements;
    } else if (subject.kind === 'Shape' && subject.subject === null) {
      return this.fail('insert shape expressions must have a type name', subjectToken.start);
    } else if (subject.kind === 'IfElse') {
      return this.fail(
        'INSERT only works with object types, not conditional expressions',
        subjectToken.start,
        'To resolve this try surrounding the INSERT branch of the conditional expression with parentheses. This way the INSERT will be triggered conditionally in one of the branches.',
      );
    } else {
      return this.fail(
        'INSERT only works with object types, not arbitrary expressions',
        subjectToken.start,
        'To resolve this try to surround the entire INSERT statement with parentheses in order to separate it from the rest of the expression.',
      );
    }
    let unlessConflict: UnlessConflict | null = null;
    const unless = this.eatKeyword('unless');
    if (unless) {
      this.expectKeyword('conflict');
      let on: Expr | null = null;
      let elseExpr: Expr | null = null;
      if (this.eatKeyword('on')) {
        on = this.parseExpr();
        if (this.eatKeyword('else')) elseExpr = this.parseExpr();
      }
      unlessConflict = create('UnlessConflict', this.spanFrom(unless.start), { on, elseExpr });
    }
    return create('InsertQuery', this.spanFrom(start), {
      aliases,
      subject: ref,
      shape,
      unlessConflict,
    });
  }

  private parseUpdate(start: Position, aliases: WithItem[]): UpdateQuery {
    this.advance(); // update
    const subject = this.parseExpr();
    const filter = this.parseFilter();
    this.expectKeyword('set', 'an update is written: update Type filter ... set { name := value }');
    if (!this.at('{'))
      return this.unexpected(this.peek(), 'expected a shape: set { name := value }');
    this.advance();
    const shape = this.parseShapeElements(false);
    return create('UpdateQuery', this.spanFrom(start), { aliases, subject, filter, shape });
  }

  private parseDelete(start: Position, aliases: WithItem[]): DeleteQuery {
    this.advance(); // delete
    const subject = this.parseExpr();
    const filter = this.parseFilter();
    const orderBy = this.parseOrderBy();
    const { offset, limit } = this.parseOffsetLimit();
    return create('DeleteQuery', this.spanFrom(start), {
      aliases,
      subject,
      filter,
      orderBy,
      offset,
      limit,
    });
  }

  private parseFor(start: Position, aliases: WithItem[]): ForQuery {
    this.advance(); // for
    const optional = this.eatKeyword('optional') !== undefined;
    const iteratorAlias = this.parseIdentifier('an iterator name');
    this.expectKeyword('in');
    const iteratorToken = this.peek();
    const complex = (): never =>
      this.fail(
        'Missing parentheses around complex expression in a FOR iterator clause',
        iteratorToken.start,
        'write the iterator in parentheses: for x in (...) union ...',
      );
    if (
      iteratorToken.kind === '-' ||
      iteratorToken.kind === '+' ||
      (iteratorToken.kind === 'Keyword' &&
        (QUERY_START.has(iteratorToken.value) ||
          ['not', 'exists', 'distinct', 'detached', 'global', 'introspect', 'if'].includes(
            iteratorToken.value,
          )))
    ) {
      return complex();
    }
    const iterator = this.parseAtomicExpr();
    let body: Expr;
    let union: boolean;
    if (this.eatKeyword('union')) {
      body = this.parseExpr();
      union = true;
    } else if (this.isQueryKeyword(this.peek())) {
      body = this.parseQuery();
      union = false;
    } else if (this.peekInfix() || this.postfixPrecedence(this.peek()) > 0) {
      return complex();
    } else if (this.at('EOF')) {
      return this.missing("keyword 'UNION'");
    } else {
      return this.unexpected(this.peek(), "expected 'union' and the loop body");
    }
    return create('ForQuery', this.spanFrom(start), {
      aliases,
      optional,
      iteratorAlias,
      iterator,
      body,
      union,
    });
  }

  /** Gel's `AtomicExpr`: a primary with path steps, or a cast of one. */
  private parseAtomicExpr(): Expr {
    const start = this.peek().start;
    if (this.at('<')) return this.parseCast(true);
    let expr = this.parsePrimary();
    for (;;) {
      const token = this.peek();
      if (
        token.kind === '.' ||
        token.kind === '.<' ||
        token.kind === '.?>' ||
        token.kind === '@' ||
        (token.kind === '[' && this.atKeyword('is', 1))
      ) {
        expr = this.parsePostfix(expr, start);
      } else {
        return expr;
      }
    }
  }

  private parseGroup(start: Position, aliases: WithItem[]): GroupQuery {
    this.advance(); // group
    const subjectAlias = this.parseOptionalAlias();
    const subject = this.parseExpr();
    const using = this.parseGroupUsing();
    const by = this.parseGroupBy();
    return create('GroupQuery', this.spanFrom(start), {
      aliases,
      subject,
      subjectAlias,
      using,
      by,
    });
  }

  /** `[using k := e, ...]` of a group. */
  private parseGroupUsing(): AliasedExpr[] | null {
    if (!this.eatKeyword('using')) return null;
    const using: AliasedExpr[] = [];
    do {
      if (this.atKeyword('by')) break;
      const itemStart = this.peek().start;
      const alias = this.parseIdentifier('a grouping alias');
      if (!this.eat(':='))
        return this.missing("':='", 'using aliases are written name := expression');
      const expr = this.parseExpr();
      using.push(create('AliasedExpr', this.spanFrom(itemStart), { alias, expr }));
    } while (this.eat(','));
    return using;
  }

  /** `by element, ...` of a group. */
  private parseGroupBy(): GroupingElement[] {
    this.expectKeyword('by', 'a group query is written: group X using k := ... by k');
    const by: GroupingElement[] = [];
    do {
      if (!this.atGroupingElement()) break;
      by.push(this.parseGroupingElement());
    } while (this.eat(','));
    if (by.length === 0) return this.unexpected(this.peek(), 'expected a grouping key after by');
    return by;
  }

  /** `for group X using ... by ... in g [, grouping] union [r :=] result [filter] [order by]`. */
  private parseInternalGroup(start: Position, aliases: WithItem[]): InternalGroupQuery {
    this.advance(); // for
    this.advance(); // group
    const subjectAlias = this.parseOptionalAlias();
    const subject = this.parseExpr();
    if (!this.atKeyword('using'))
      return this.missing("keyword 'USING'", 'for group X using k := ... by k in g union ...');
    const using = this.parseGroupUsing() ?? [];
    const by = this.parseGroupBy();
    this.expectKeyword('in');
    const groupAlias = this.parseIdentifier('a group name');
    const groupingAlias = this.eat(',') ? this.parseIdentifier('a grouping name') : null;
    this.expectKeyword('union');
    const resultAlias = this.parseOptionalAlias();
    const result = this.parseExpr();
    const filter = this.parseFilter();
    const orderBy = this.parseOrderBy();
    return create('InternalGroupQuery', this.spanFrom(start), {
      aliases,
      subject,
      subjectAlias,
      using,
      by,
      groupAlias,
      groupingAlias,
      resultAlias,
      result,
      filter,
      orderBy,
    });
  }

  private atGroupingElement(): boolean {
    const token = this.peek();
    return (
      token.kind === '{' ||
      token.kind === '(' ||
      token.kind === '.' ||
      token.kind === '@' ||
      this.isIdentifierToken(token)
    );
  }

  private parseGroupingElement(): GroupingElement {
    const start = this.peek().start;
    if (this.eat('{')) {
      const sets: GroupingElement[] = [];
      while (!this.eat('}')) {
        sets.push(this.parseGroupingElement());
        if (this.eat(',')) continue;
        if (this.at('}')) continue;
        return this.listError('}');
      }
      return create('GroupingSets', this.spanFrom(start), { sets });
    }
    if ((this.atKeyword('rollup') || this.atKeyword('cube')) && this.at('(', 1)) {
      const op = this.advance().value as 'rollup' | 'cube';
      this.advance();
      const elements: GroupingAtom[] = [];
      while (!this.eat(')')) {
        elements.push(this.parseGroupingAtom());
        if (this.eat(',')) continue;
        if (this.at(')')) continue;
        return this.listError(')');
      }
      return create('GroupingOperation', this.spanFrom(start), { op, elements });
    }
    const element = this.parseGroupingAtom();
    return create('GroupingSimple', this.spanFrom(start), { element });
  }

  private parseGroupingAtom(): GroupingAtom {
    const start = this.peek().start;
    if (this.eat('(')) {
      const elements: GroupingIdent[] = [];
      // `()`: the grouping set of no key (every element in one group).
      if (this.eat(')')) return create('GroupingIdentList', this.spanFrom(start), { elements });
      for (;;) {
        elements.push(this.parseGroupingIdent());
        if (this.eat(',')) continue;
        if (this.eat(')')) break;
        return this.listError(')');
      }
      return create('GroupingIdentList', this.spanFrom(start), { elements });
    }
    return this.parseGroupingIdent();
  }

  private parseGroupingIdent(): GroupingIdent {
    const start = this.peek().start;
    const token = this.peek();
    if (token.kind === '.' || token.kind === '@') {
      this.advance();
      const name = this.parseIdentifier();
      const ptr = create('Ptr', this.spanFrom(start), { name, via: token.kind });
      return create('Path', this.spanFrom(start), { subject: null, steps: [ptr] });
    }
    const name = this.parseIdentifier('a grouping key');
    return create('ObjectRef', this.spanFrom(start), { module: null, name });
  }
}
