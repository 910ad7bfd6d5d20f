/**
 * sdl-parser: SDL text → `Schema`, on the same lexer and expression grammar as queries
 * (`SchemaParser` extends `Parser`); every error is a `SchemaSyntaxError`.
 *
 * Both pointer syntaxes parse: the current one (`required name: str;`, `multi friends: User;`)
 * and the older arrow one (`required property name -> str;`); like Gel, `:` and `->` are
 * interchangeable wherever a target type is declared. Declarations outside `module x { }`
 * blocks belong to the module `default` (see `ModuleDecl.implicit`).
 */
import { SchemaSyntaxError } from '../errors';
import {
  create,
  type AbstractConstraintDecl,
  type AccessKind,
  type AccessPolicy,
  type AliasDecl,
  type AnnotationDecl,
  type AnnotationValue,
  type ConcreteConstraint,
  type ConcreteIndex,
  type Declaration,
  type Expr,
  type FuncParam,
  type FunctionCode,
  type FunctionDecl,
  type GlobalDecl,
  type ModuleDecl,
  type NamedArg,
  type ObjectRef,
  type ObjectTypeDecl,
  type ObjectTypeMember,
  type OnSourceDelete,
  type OnTargetDelete,
  type PermissionDecl,
  type PointerDecl,
  type PointerMember,
  type Rewrite,
  type ScalarTypeDecl,
  type Schema,
  type SetField,
  type Trigger,
  type TypeExpr,
  type TypeName,
  type Using,
  type UsingExtension,
  type UsingFuture,
} from './ast';
import { SDL_DECLARATION_KEYWORDS, SDL_MEMBER_KEYWORDS, didYouMean, suggest } from './hints';
import { Parser } from './parser';
import type { Position, Token } from './tokens';

/** What a pointer block may contain. */
type PointerContext = 'link' | 'property' | 'unknown' | 'abstract-link' | 'abstract-property';

const BOTH_TARGET_SYNTAXES =
  "declare the target type with ':' (current syntax) or '->' (older syntax), not both";

export class SchemaParser extends Parser {
  /**
   * Blocks in DDL form (./ddl-parser): a member may start with `create` and a field with `set`
   * (`create required property title: std::str { set default := '' };`).
   */
  protected ddl = false;

  constructor(source: string) {
    super(source, SchemaSyntaxError);
  }

  parseSchema(): Schema {
    const start = this.peek().start;
    const extensions: UsingExtension[] = [];
    const futures: UsingFuture[] = [];
    const modules: ModuleDecl[] = [];
    let bare: Declaration[] = [];
    const flush = (): void => {
      const first = bare[0];
      const last = bare[bare.length - 1];
      if (first && last) {
        modules.push(
          create(
            'ModuleDecl',
            { start: first.span.start, end: last.span.end },
            {
              name: 'default',
              implicit: true,
              declarations: bare,
            },
          ),
        );
      }
      bare = [];
    };
    for (;;) {
      while (this.eat(';')) {
        // stray semicolons are allowed between declarations
      }
      if (this.at('EOF')) break;
      if (this.atKeyword('using') && this.atKeyword('extension', 1)) {
        extensions.push(this.parseUsingExtension());
      } else if (this.atKeyword('using') && this.atKeyword('future', 1)) {
        futures.push(this.parseUsingFuture());
      } else if (this.atKeyword('module')) {
        flush();
        modules.push(this.parseModule());
      } else {
        bare.push(this.parseDeclaration(true));
      }
    }
    flush();
    return create('Schema', { start, end: this.peek().end }, { extensions, futures, modules });
  }

  // =============================================================================================
  // Helpers

  /** The end of a short declaration: `;`, or nothing before `}` / the end of the text. */
  protected endShort(): void {
    if (this.eat(';') || this.at('}') || this.at('EOF')) return;
    const token = this.peek();
    if (token.kind === '=') this.unexpected(token, "use ':=' to set a value");
    if (token.kind === '->' || token.kind === ':') this.unexpected(token, BOTH_TARGET_SYNTAXES);
    this.missing("';'", "end each declaration with ';'");
  }

  /** After `{`: members up to the matching `}`, with `;` between short ones. */
  protected parseBlock<T>(member: () => T): T[] {
    this.expect('{');
    const members: T[] = [];
    for (;;) {
      while (this.eat(';')) {
        // empty members are allowed
      }
      if (this.eat('}')) return members;
      if (this.at('EOF')) return this.missing("'}'");
      if (this.ddl) this.eatDdlPrefix();
      members.push(member());
    }
  }

  /** In DDL form, the `create` before a member or the `set` before a field. */
  protected eatDdlPrefix(): void {
    if (this.atKeyword('create')) this.advance();
    else if (this.atKeyword('set') && this.isIdentifierToken(this.peek(1)) && this.at(':=', 2))
      this.advance();
  }

  /** Members of a block, or none after a short declaration's `;`. */
  protected optionalBlock<T>(member: () => T): T[] {
    if (this.at('{')) return this.parseBlock(member);
    this.endShort();
    return [];
  }

  /**
   * True when `token`, after a word, shows that word is a name rather than a keyword:
   * `index: int64` is a property named index, `index on (...)` is an index.
   */
  protected nameFollows(token: Token): boolean {
    return (
      token.kind === ':' ||
      token.kind === '->' ||
      token.kind === ':=' ||
      token.kind === '{' ||
      token.kind === ';' ||
      token.kind === '}' ||
      token.kind === 'EOF' ||
      (token.kind === 'Keyword' && token.value === 'extending')
    );
  }

  /** A keyword that starts a construct here (not a name that happens to spell it). */
  protected atLeading(keyword: string): boolean {
    return this.atKeyword(keyword) && !this.nameFollows(this.peek(1));
  }

  protected checkDeclName(name: ObjectRef, topLevel: boolean): void {
    if (!topLevel && name.module !== null) {
      this.fail('fully-qualified name is not allowed in a module declaration', name.span.start);
    }
  }

  /** `(expr)` after `on`, `using`, `when`, `do`, `except`. */
  protected parseParenExpr(): Expr {
    this.expect('(');
    const expr = this.parseGenExpr();
    if (this.at(',')) {
      return this.unexpected(this.peek(), 'a tuple needs its own parentheses: on ((.a, .b))');
    }
    if (!this.eat(')')) return this.listError(')');
    return expr;
  }

  protected parseExtending(subtypes: boolean): TypeName[] {
    if (!this.eatKeyword('extending')) return [];
    const bases: TypeName[] = [];
    do {
      const start = this.peek().start;
      const name = this.parseNodeName(true);
      const args = subtypes && this.at('<') ? this.parseTypeArguments() : [];
      bases.push(create('TypeName', this.spanFrom(start), { name, subtypes: args }));
    } while (this.eat(','));
    return bases;
  }

  protected parseSetField(): SetField {
    const start = this.peek().start;
    const name = this.parseIdentifier();
    if (this.at('=')) return this.unexpected(this.peek(), `use ':=' to set '${name}'`);
    this.expect(':=');
    const value = this.parseGenExpr();
    this.endShort();
    return create('SetField', this.spanFrom(start), { name, value });
  }

  protected parseAnnotationValue(): AnnotationValue {
    const start = this.advance().start; // annotation
    const name = this.parseNodeName();
    if (this.at('=')) return this.unexpected(this.peek(), "use ':=' to set an annotation");
    this.expect(':=', "an annotation is set with: annotation name := 'value'");
    const value = this.parseGenExpr();
    this.endShort();
    return create('AnnotationValue', this.spanFrom(start), { name, value });
  }

  protected parseUsing(): Using {
    const start = this.advance().start; // using
    const expr = this.parseParenExpr();
    this.endShort();
    return create('Using', this.spanFrom(start), { expr });
  }

  /** Members allowed in most blocks: `name := value` and annotations. */
  protected parseFieldOrAnnotation(what: string): SetField | AnnotationValue {
    if (this.atLeading('annotation')) return this.parseAnnotationValue();
    if (this.isIdentifierToken(this.peek()) && (this.at(':=', 1) || this.at('=', 1))) {
      return this.parseSetField();
    }
    return this.memberError(what);
  }

  protected memberError(what: string): never {
    const token = this.peek();
    if (token.kind === 'Ident') {
      const keyword = suggest(token.value, SDL_MEMBER_KEYWORDS);
      if (keyword) return this.unexpected(token, didYouMean(keyword));
    }
    return this.unexpected(token, `expected ${what}`);
  }

  // =============================================================================================
  // Top level

  protected parseUsingExtension(): UsingExtension {
    const start = this.advance().start; // using
    this.advance(); // extension
    return this.parseExtensionRest(start);
  }

  /** After `using extension` (or DDL's `create extension`): `name [version '1.0'];`. */
  protected parseExtensionRest(start: Position): UsingExtension {
    const name = this.parseIdentifier('an extension name');
    let version: string | null = null;
    if (this.eatKeyword('version')) {
      const token = this.peek();
      if (token.kind !== 'Str')
        return this.unexpected(token, "expected a version string: version '1.0'");
      version = this.advance().value;
    }
    this.endShort();
    return create('UsingExtension', this.spanFrom(start), { name, version });
  }

  protected parseUsingFuture(): UsingFuture {
    const start = this.advance().start; // using
    this.advance(); // future
    const name = this.parseIdentifier('a future feature name');
    this.endShort();
    return create('UsingFuture', this.spanFrom(start), { name });
  }

  protected parseModule(): ModuleDecl {
    const start = this.advance().start; // module
    const name = this.parseModuleName();
    const declarations = this.parseBlock(() =>
      this.atKeyword('module') ? this.parseModule() : this.parseDeclaration(false),
    );
    return create('ModuleDecl', this.spanFrom(start), { name, implicit: false, declarations });
  }

  protected parseDeclaration(topLevel: boolean): Declaration {
    const token = this.peek();
    if (token.kind === 'Keyword') {
      switch (token.value) {
        case 'abstract':
          return this.parseAbstract(topLevel);
        case 'type':
          return this.parseObjectType(token.start, false, topLevel);
        case 'scalar':
          return this.parseScalarType(token.start, false, topLevel);
        case 'alias':
          return this.parseAlias(topLevel);
        case 'function':
          return this.parseFunction(topLevel);
        case 'global':
          return this.parseGlobal(topLevel);
        case 'permission':
          return this.parsePermission(topLevel);
        case 'required':
        case 'optional':
        case 'single':
        case 'multi':
          if (this.isGlobalAhead()) return this.parseGlobal(topLevel);
          return this.unexpected(
            token,
            'properties and links are declared inside a type: type Name { ... }',
          );
        case 'annotation':
          return this.fail(
            "Missing keyword 'ABSTRACT'",
            token.start,
            "declare an annotation with 'abstract annotation name;' (set one inside a declaration with 'annotation name := value;')",
          );
        case 'constraint':
          return this.fail(
            "Missing keyword 'ABSTRACT'",
            token.start,
            "declare a constraint with 'abstract constraint name ...'; use one inside a type with 'constraint name;'",
          );
        case 'property':
        case 'link':
          return this.fail(
            "Missing keyword 'ABSTRACT'",
            token.start,
            `declare a shared ${token.value} with 'abstract ${token.value} name;', or declare it inside a type`,
          );
        case 'module':
          return this.unexpected(token);
        default:
          break;
      }
    }
    if (token.kind === 'Ident') {
      const keyword = suggest(token.value, SDL_DECLARATION_KEYWORDS);
      if (keyword) return this.unexpected(token, didYouMean(keyword));
    }
    return this.unexpected(
      token,
      'expected a declaration: type, scalar type, abstract constraint, abstract annotation, function, alias, global or module',
    );
  }

  protected isGlobalAhead(): boolean {
    for (let k = 0; k < 3; k++) {
      if (this.atKeyword('global', k)) return true;
    }
    return false;
  }

  protected parseAbstract(topLevel: boolean): Declaration {
    const start = this.advance().start; // abstract
    const token = this.peek();
    if (token.kind === 'Keyword') {
      switch (token.value) {
        case 'type':
          return this.parseObjectType(start, true, topLevel);
        case 'scalar':
          return this.parseScalarType(start, true, topLevel);
        case 'constraint':
          return this.parseAbstractConstraint(start, topLevel);
        case 'annotation':
        case 'inheritable':
          return this.parseAnnotationDecl(start, topLevel);
        case 'property':
        case 'link':
          return this.parseAbstractPointer(start);
        default:
          break;
      }
    }
    if (token.kind === 'Ident') {
      const keyword = suggest(token.value, [
        'type',
        'scalar',
        'constraint',
        'annotation',
        'inheritable',
        'property',
        'link',
      ]);
      if (keyword) return this.unexpected(token, didYouMean(keyword));
    }
    return this.unexpected(
      token,
      'expected type, scalar type, constraint, annotation, property or link after abstract',
    );
  }

  // =============================================================================================
  // Types

  protected parseObjectType(start: Position, abstract: boolean, topLevel: boolean): ObjectTypeDecl {
    this.expectKeyword('type');
    const name = this.parseNodeName();
    this.checkDeclName(name, topLevel);
    const extending = this.parseExtending(false);
    const members = this.optionalBlock(() => this.parseObjectMember());
    return create('ObjectTypeDecl', this.spanFrom(start), { name, abstract, extending, members });
  }

  protected parseObjectMember(): ObjectTypeMember {
    if (this.atLeading('annotation')) return this.parseAnnotationValue();
    if (
      this.atLeading('constraint') ||
      (this.atKeyword('delegated') && this.atKeyword('constraint', 1))
    ) {
      return this.parseConcreteConstraint();
    }
    if (this.atLeading('index') || (this.atKeyword('deferred') && this.atKeyword('index', 1))) {
      return this.parseConcreteIndex();
    }
    if (this.atKeyword('access') && this.atKeyword('policy', 1)) return this.parseAccessPolicy();
    if (this.atLeading('trigger')) return this.parseTrigger();
    return this.parsePointer('type');
  }

  protected parseScalarType(start: Position, abstract: boolean, topLevel: boolean): ScalarTypeDecl {
    this.expectKeyword('scalar');
    this.expectKeyword('type', "a scalar type is declared with 'scalar type Name extending base'");
    const name = this.parseNodeName();
    this.checkDeclName(name, topLevel);
    const extending = this.parseExtending(true);
    const members = this.optionalBlock(() =>
      this.atLeading('constraint') ||
      (this.atKeyword('delegated') && this.atKeyword('constraint', 1))
        ? this.parseConcreteConstraint()
        : this.parseFieldOrAnnotation('a constraint, annotation or field'),
    );
    return create('ScalarTypeDecl', this.spanFrom(start), { name, abstract, extending, members });
  }

  // =============================================================================================
  // Pointers

  /**
   * A property or link inside a type (`context` 'type') or a link property inside a link.
   * Qualifiers and keywords are told apart from names by what follows them.
   */
  protected parsePointer(context: 'type' | 'link-property'): PointerDecl {
    const start = this.peek().start;
    const overloaded = this.atLeading('overloaded') ? (this.advance(), true) : false;
    let required: boolean | null = null;
    let cardinality: 'single' | 'multi' | null = null;
    if (this.atLeading('required') || this.atLeading('optional')) {
      required = this.advance().value === 'required';
    }
    if (this.atLeading('single') || this.atLeading('multi')) {
      cardinality = this.advance().value as 'single' | 'multi';
    }
    let pointerKind: 'property' | 'link' | null = null;
    if (this.atLeading('property') || this.atLeading('link')) {
      pointerKind = this.advance().value as 'property' | 'link';
      if (context === 'link-property' && pointerKind === 'link') {
        this.fail(
          "Unexpected keyword 'LINK'",
          this.previous().start,
          'a link can have properties, not links',
        );
      }
    }
    const nameToken = this.peek();
    if (nameToken.kind === 'Ident' && this.isAnyIdentifierToken(this.peek(1))) {
      const keyword = suggest(nameToken.value, SDL_MEMBER_KEYWORDS);
      if (keyword) return this.unexpected(nameToken, didYouMean(keyword));
    }
    const name = this.parsePtrIdentifier('a property or link name');
    const extending = this.parseExtending(false);
    let target: TypeExpr | null = null;
    let computed: Expr | null = null;
    if (this.at(':') || this.at('->')) {
      this.advance();
      if (this.at(':') || this.at('->')) return this.unexpected(this.peek(), BOTH_TARGET_SYNTAXES);
      if (this.at(':=')) {
        return this.unexpected(
          this.peek(),
          `a computed ${pointerKind ?? 'pointer'} has no type: ${name} := expression`,
        );
      }
      target = this.parseFullTypeExpr();
    } else if (this.eat(':=')) {
      computed = this.parseGenExpr();
    } else if (this.at('=')) {
      return this.unexpected(this.peek(), "use ':=' for a computed pointer and ':' for a type");
    } else if (this.isIdentifierToken(this.peek())) {
      return this.missing("':'", `declare the type with '${name}: type'`);
    }
    const pointerContext: PointerContext =
      context === 'link-property' ? 'property' : (pointerKind ?? 'unknown');
    const members: PointerMember[] =
      computed === null
        ? this.optionalBlock(() => this.parsePointerMember(pointerContext))
        : (this.endShort(), []);
    this.checkPointerMembers(members);
    if (
      target === null &&
      computed === null &&
      !overloaded &&
      !members.some((m) => m.kind === 'Using')
    ) {
      return this.fail(
        `missing type declaration for '${name}'`,
        nameToken.start,
        `declare its type (${name}: type) or compute it (${name} := expression)`,
      );
    }
    return create('PointerDecl', this.spanFrom(start), {
      pointerKind,
      name,
      abstract: false,
      overloaded,
      required,
      cardinality,
      extending,
      target,
      computed,
      members,
    });
  }

  protected parseAbstractPointer(start: Position): PointerDecl {
    const pointerKind = this.advance().value as 'property' | 'link';
    const nameStart = this.peek().start;
    const ref = this.parseNodeName(true);
    if (ref.module !== null && !this.ddl) {
      return this.fail(
        `a qualified name is not supported for an abstract ${pointerKind}; declare it inside a module block`,
        nameStart,
      );
    }
    const extending = this.parseExtending(false);
    const members = this.optionalBlock(() =>
      this.parsePointerMember(pointerKind === 'link' ? 'abstract-link' : 'abstract-property'),
    );
    this.checkPointerMembers(members);
    return create('PointerDecl', this.spanFrom(start), {
      pointerKind,
      // In DDL the name carries its module (`create abstract link default::owner`).
      name: ref.module === null ? ref.name : `${ref.module}::${ref.name}`,
      abstract: true,
      overloaded: false,
      required: null,
      cardinality: null,
      extending,
      target: null,
      computed: null,
      members,
    });
  }

  protected checkPointerMembers(members: readonly PointerMember[]): void {
    let onTarget = 0;
    let onSource = 0;
    for (const m of members) {
      if (m.kind === 'OnTargetDelete' && ++onTarget > 1) {
        this.fail("more than one 'on target delete' specification", m.span.start);
      }
      if (m.kind === 'OnSourceDelete' && ++onSource > 1) {
        this.fail("more than one 'on source delete' specification", m.span.start);
      }
    }
  }

  protected parsePointerMember(context: PointerContext): PointerMember {
    const hasProperties = context !== 'property' && context !== 'abstract-property';
    if (this.atKeyword('using') && this.at('(', 1)) return this.parseUsing();
    if (this.atLeading('annotation')) return this.parseAnnotationValue();
    if (
      this.atLeading('constraint') ||
      (this.atKeyword('delegated') && this.atKeyword('constraint', 1))
    ) {
      return this.parseConcreteConstraint();
    }
    if (this.atLeading('rewrite')) return this.parseRewrite();
    if (hasProperties && this.atKeyword('on')) return this.parseOnDelete();
    if (
      hasProperties &&
      (this.atLeading('index') || (this.atKeyword('deferred') && this.atKeyword('index', 1)))
    ) {
      return this.parseConcreteIndex();
    }
    const token = this.peek();
    if (this.isIdentifierToken(token) && (this.at(':=', 1) || this.at('=', 1)))
      return this.parseSetField();
    const pointerAhead =
      this.atLeading('property') ||
      this.atLeading('link') ||
      this.atLeading('required') ||
      this.atLeading('optional') ||
      this.atLeading('single') ||
      this.atLeading('multi') ||
      this.atLeading('overloaded') ||
      (this.isPtrIdentifierToken(token) &&
        (this.at(':', 1) || this.at('->', 1) || this.atKeyword('extending', 1) || this.at('{', 1)));
    if (pointerAhead) {
      if (!hasProperties) {
        return this.unexpected(
          token,
          'a property cannot have properties; link properties are declared inside a link',
        );
      }
      return this.parsePointer('link-property');
    }
    if (token.kind === 'Keyword' && token.value === 'on') {
      return this.unexpected(token, "'on target delete' and 'on source delete' apply to links");
    }
    return this.memberError('a constraint, annotation, field or link property');
  }

  protected parseOnDelete(): OnTargetDelete | OnSourceDelete {
    const start = this.advance().start; // on
    if (this.eatKeyword('target')) {
      this.expectKeyword('delete');
      let action: OnTargetDelete['action'];
      if (this.eatKeyword('restrict')) action = 'restrict';
      else if (this.eatKeyword('allow')) action = 'allow';
      else if (this.eatKeyword('delete')) {
        this.expectKeyword('source');
        action = 'delete source';
      } else if (this.eatKeyword('deferred')) {
        this.expectKeyword('restrict');
        action = 'deferred restrict';
      } else {
        return this.unexpected(
          this.peek(),
          'expected restrict, delete source, allow or deferred restrict',
        );
      }
      this.endShort();
      return create('OnTargetDelete', this.spanFrom(start), { action });
    }
    if (this.eatKeyword('source')) {
      this.expectKeyword('delete');
      let action: OnSourceDelete['action'];
      if (this.eatKeyword('allow')) action = 'allow';
      else if (this.eatKeyword('delete')) {
        this.expectKeyword('target');
        if (this.eatKeyword('if')) {
          this.expectKeyword('orphan');
          action = 'delete target if orphan';
        } else {
          action = 'delete target';
        }
      } else {
        return this.unexpected(
          this.peek(),
          'expected delete target, delete target if orphan or allow',
        );
      }
      this.endShort();
      return create('OnSourceDelete', this.spanFrom(start), { action });
    }
    return this.unexpected(this.peek(), "expected 'on target delete' or 'on source delete'");
  }

  // =============================================================================================
  // Constraints, indexes, policies, triggers, rewrites

  protected parseConcreteConstraint(): ConcreteConstraint {
    const start = this.peek().start;
    const delegated = this.eatKeyword('delegated') !== undefined;
    this.expectKeyword('constraint');
    const name = this.parseNodeName();
    const args: Expr[] = [];
    if (this.eat('(')) {
      while (!this.eat(')')) {
        if (this.isAnyIdentifierToken(this.peek()) && this.at(':=', 1)) {
          return this.unexpected(this.peek(1), 'constraint arguments are positional');
        }
        args.push(this.parseArgument());
        if (this.eat(',')) continue;
        if (this.at(')')) continue;
        return this.listError(')');
      }
    }
    const on = this.eatKeyword('on') ? this.parseParenExpr() : null;
    const except = this.eatKeyword('except') ? this.parseParenExpr() : null;
    const members = this.optionalBlock(() =>
      this.parseFieldOrAnnotation('errmessage := ... or an annotation'),
    );
    return create('ConcreteConstraint', this.spanFrom(start), {
      name,
      delegated,
      args,
      on,
      except,
      members,
    });
  }

  protected parseConcreteIndex(): ConcreteIndex {
    const start = this.peek().start;
    const deferred = this.eatKeyword('deferred') !== undefined;
    this.expectKeyword('index');
    let name: ObjectRef | null = null;
    const args: NamedArg[] = [];
    if (!this.atKeyword('on')) {
      name = this.parseNodeName();
      if (this.eat('(')) {
        while (!this.eat(')')) {
          const argStart = this.peek().start;
          const argName = this.parseAnyIdentifier('an index argument name');
          this.expect(':=', 'index arguments are named: name := value');
          const value = this.parseExpr();
          args.push(create('NamedArg', this.spanFrom(argStart), { name: argName, value }));
          if (this.eat(',')) continue;
          if (this.at(')')) continue;
          return this.listError(')');
        }
      }
      if (!this.atKeyword('on')) {
        const token = this.peek();
        return this.fail(
          `Expected 'ON', but got '${token.text}' instead`,
          token.start,
          'an index is declared with: index on (expression)',
        );
      }
    }
    this.advance(); // on
    const on = this.parseParenExpr();
    const except = this.eatKeyword('except') ? this.parseParenExpr() : null;
    const members = this.optionalBlock(() => this.parseFieldOrAnnotation('an annotation or field'));
    return create('ConcreteIndex', this.spanFrom(start), {
      name,
      deferred,
      args,
      on,
      except,
      members,
    });
  }

  protected parseAccessPolicy(): AccessPolicy {
    const start = this.advance().start; // access
    this.advance(); // policy
    const name = this.parseIdentifier('a policy name');
    const when = this.eatKeyword('when') ? this.parseParenExpr() : null;
    let action: 'allow' | 'deny';
    if (this.eatKeyword('allow')) action = 'allow';
    else if (this.eatKeyword('deny')) action = 'deny';
    else {
      const token = this.peek();
      if (token.kind === 'Ident') {
        const keyword = suggest(token.value, ['allow', 'deny']);
        if (keyword) return this.unexpected(token, didYouMean(keyword));
      }
      return this.unexpected(token, "expected 'allow' or 'deny'");
    }
    const kinds: AccessKind[] = [];
    do {
      kinds.push(this.parseAccessKind());
    } while (this.eat(','));
    const using = this.eatKeyword('using') ? this.parseParenExpr() : null;
    if (this.atKeyword('when')) {
      return this.unexpected(this.peek(), "'when (...)' comes before 'allow' or 'deny'");
    }
    const members = this.optionalBlock(() =>
      this.parseFieldOrAnnotation('errmessage := ... or an annotation'),
    );
    return create('AccessPolicy', this.spanFrom(start), {
      name,
      when,
      action,
      kinds,
      using,
      members,
    });
  }

  protected parseAccessKind(): AccessKind {
    const token = this.peek();
    if (token.kind === 'Keyword') {
      switch (token.value) {
        case 'all':
        case 'select':
        case 'insert':
        case 'delete':
          this.advance();
          return token.value;
        case 'update':
          this.advance();
          if (this.eatKeyword('read')) return 'update read';
          if (this.eatKeyword('write')) return 'update write';
          return 'update';
        default:
          break;
      }
    }
    return this.unexpected(
      token,
      'expected an access kind: all, select, insert, update, update read, update write or delete',
    );
  }

  protected parseTrigger(): Trigger {
    const start = this.advance().start; // trigger
    const name = this.parseIdentifier('a trigger name');
    this.expectKeyword(
      'after',
      'a trigger runs after: trigger name after insert for each do (...)',
    );
    let timing: Trigger['timing'] = 'after';
    if (this.eatKeyword('commit')) {
      this.expectKeyword('of');
      timing = 'after commit of';
    }
    const kinds: ('insert' | 'update' | 'delete')[] = [];
    do {
      const token = this.peek();
      if (
        token.kind === 'Keyword' &&
        (token.value === 'insert' || token.value === 'update' || token.value === 'delete')
      ) {
        kinds.push(token.value);
        this.advance();
      } else {
        return this.unexpected(token, 'expected insert, update or delete');
      }
    } while (this.eat(','));
    this.expectKeyword('for');
    let scope: 'each' | 'all';
    if (this.eatKeyword('each')) scope = 'each';
    else if (this.eatKeyword('all')) scope = 'all';
    else return this.unexpected(this.peek(), "expected 'for each' or 'for all'");
    const when = this.eatKeyword('when') ? this.parseParenExpr() : null;
    this.expectKeyword('do');
    const expr = this.parseParenExpr();
    const members = this.optionalBlock(() => this.parseFieldOrAnnotation('an annotation or field'));
    return create('Trigger', this.spanFrom(start), {
      name,
      timing,
      kinds,
      scope,
      when,
      expr,
      members,
    });
  }

  protected parseRewrite(): Rewrite {
    const start = this.advance().start; // rewrite
    const kinds: ('insert' | 'update')[] = [];
    do {
      const token = this.peek();
      if (token.kind === 'Keyword' && (token.value === 'insert' || token.value === 'update')) {
        kinds.push(token.value);
        this.advance();
      } else {
        return this.unexpected(token, 'expected insert or update');
      }
    } while (this.eat(','));
    this.expectKeyword('using');
    const expr = this.parseParenExpr();
    const members = this.optionalBlock(() => this.parseFieldOrAnnotation('an annotation or field'));
    return create('Rewrite', this.spanFrom(start), { kinds, expr, members });
  }

  // =============================================================================================
  // Annotations, constraints, functions, aliases, globals, permissions

  protected parseAnnotationDecl(start: Position, topLevel: boolean): AnnotationDecl {
    const inheritable = this.eatKeyword('inheritable') !== undefined;
    this.expectKeyword('annotation');
    const name = this.parseNodeName();
    this.checkDeclName(name, topLevel);
    const extending = this.parseExtending(false);
    const members = this.optionalBlock(() => this.parseFieldOrAnnotation('an annotation or field'));
    return create('AnnotationDecl', this.spanFrom(start), {
      name,
      inheritable,
      extending,
      members,
    });
  }

  protected parseAbstractConstraint(start: Position, topLevel: boolean): AbstractConstraintDecl {
    this.advance(); // constraint
    const name = this.parseNodeName();
    this.checkDeclName(name, topLevel);
    const params = this.at('(') ? this.parseParams() : null;
    const on = this.eatKeyword('on') ? this.parseParenExpr() : null;
    const extending = this.parseExtending(false);
    const members = this.optionalBlock(() =>
      this.atKeyword('using') && this.at('(', 1)
        ? this.parseUsing()
        : this.parseFieldOrAnnotation('using (...), errmessage := ... or an annotation'),
    );
    return create('AbstractConstraintDecl', this.spanFrom(start), {
      name,
      params,
      on,
      extending,
      members,
    });
  }

  /** `(params)` of a function or abstract constraint. */
  protected parseParams(): FuncParam[] {
    this.expect('(');
    const params: FuncParam[] = [];
    while (!this.eat(')')) {
      const start = this.peek().start;
      let paramKind: FuncParam['paramKind'] = 'positional';
      if (this.atKeyword('variadic')) {
        this.advance();
        paramKind = 'variadic';
      } else if (this.atKeyword('named') && this.atKeyword('only', 1)) {
        this.advance();
        this.advance();
        paramKind = 'named only';
      }
      const nameToken = this.peek();
      if (nameToken.kind === 'Parameter') {
        return this.fail(
          `function parameters do not need a $ prefix, rewrite as '${nameToken.value}'`,
          nameToken.start,
        );
      }
      const name = this.parseIdentifier('a parameter name');
      if (params.some((p) => p.name === name)) {
        return this.fail(`duplicate parameter name \`${name}\``, nameToken.start);
      }
      if (!this.eat(':')) {
        if (this.at('=') || this.at(',') || this.at(')')) {
          return this.fail(
            `missing type declaration for the \`${name}\` parameter`,
            nameToken.start,
          );
        }
        return this.missing("':'", `declare the parameter type: ${name}: type`);
      }
      const typeModifier = this.parseTypeModifier();
      const type = this.parseFullTypeExpr();
      const defaultExpr = this.eat('=') ? this.parseExpr() : null;
      if (this.at(':='))
        return this.unexpected(
          this.peek(),
          "a parameter default is written with '=': name: type = value",
        );
      params.push(
        create('FuncParam', this.spanFrom(start), {
          name,
          paramKind,
          typeModifier,
          type,
          default: defaultExpr,
        }),
      );
      if (this.eat(',')) continue;
      if (this.at(')')) continue;
      return this.listError(')');
    }
    return params;
  }

  protected parseTypeModifier(): 'set of' | 'optional' | null {
    if (this.atKeyword('set') && this.atKeyword('of', 1)) {
      this.advance();
      this.advance();
      return 'set of';
    }
    if (this.eatKeyword('optional')) return 'optional';
    return null;
  }

  protected parseFunction(topLevel: boolean): FunctionDecl {
    const start = this.advance().start; // function
    const name = this.parseNodeName();
    this.checkDeclName(name, topLevel);
    if (!this.at('('))
      return this.missing(
        "'('",
        'a function declares its parameters: function name(x: int64) -> str',
      );
    const params = this.parseParams();
    if (this.at(':')) {
      return this.unexpected(
        this.peek(),
        "a function's return type follows '->': function name(...) -> type",
      );
    }
    this.expect('->', 'declare the return type: function name(...) -> type');
    const returnModifier = this.parseTypeModifier();
    const returnType = this.parseFullTypeExpr();
    let members: FunctionDecl['members'];
    if (this.at('{')) {
      members = this.parseBlock(() => this.parseFunctionMember());
    } else {
      members = [this.parseFunctionMember()];
    }
    return create('FunctionDecl', this.spanFrom(start), {
      name,
      params,
      returnModifier,
      returnType,
      members,
    });
  }

  protected parseFunctionMember(): FunctionDecl['members'][number] {
    if (this.atKeyword('using') && !this.at(':=', 1)) {
      if (this.at('(', 1)) return this.parseUsing();
      return this.parseFunctionCode();
    }
    return this.parseFieldOrAnnotation("using (...), volatility := '...' or an annotation");
  }

  protected parseFunctionCode(): FunctionCode {
    const start = this.advance().start; // using
    const language = this.parseIdentifier('a language name');
    let mode: FunctionCode['mode'] = 'code';
    let text: string | null = null;
    if (this.eatKeyword('function')) {
      mode = 'function';
    } else if (this.eatKeyword('expression')) {
      mode = 'expression';
    }
    if (mode !== 'expression') {
      const token = this.peek();
      if (token.kind !== 'Str')
        return this.unexpected(
          token,
          `expected the ${mode === 'function' ? 'function name' : 'code'} as a string`,
        );
      text = this.advance().value;
    }
    this.endShort();
    return create('FunctionCode', this.spanFrom(start), { language, mode, text });
  }

  protected parseAlias(topLevel: boolean): AliasDecl {
    const start = this.advance().start; // alias
    const name = this.parseNodeName();
    this.checkDeclName(name, topLevel);
    if (this.eat(':=')) {
      const expr = this.parseGenExpr();
      this.endShort();
      return create('AliasDecl', this.spanFrom(start), { name, expr, members: [] });
    }
    if (!this.at('{')) {
      if (this.at('='))
        return this.unexpected(
          this.peek(),
          "an alias is declared with ':=': alias Name := expression",
        );
      return this.missing("':='", 'an alias is declared with: alias Name := expression');
    }
    const members = this.parseBlock(() =>
      this.atKeyword('using') && this.at('(', 1)
        ? this.parseUsing()
        : this.parseFieldOrAnnotation('using (...) or an annotation'),
    );
    return create('AliasDecl', this.spanFrom(start), { name, expr: null, members });
  }

  protected parseGlobal(topLevel: boolean): GlobalDecl {
    const start = this.peek().start;
    let required: boolean | null = null;
    let cardinality: 'single' | 'multi' | null = null;
    if (this.atKeyword('required') || this.atKeyword('optional')) {
      required = this.advance().value === 'required';
    }
    if (this.atKeyword('single') || this.atKeyword('multi')) {
      cardinality = this.advance().value as 'single' | 'multi';
    }
    this.expectKeyword('global');
    const nameToken = this.peek();
    const name = this.parseNodeName();
    this.checkDeclName(name, topLevel);
    let target: TypeExpr | null = null;
    let computed: Expr | null = null;
    let members: GlobalDecl['members'] = [];
    const member = (): GlobalDecl['members'][number] =>
      this.atKeyword('using') && this.at('(', 1)
        ? this.parseUsing()
        : this.parseFieldOrAnnotation('default := ..., using (...) or an annotation');
    if (this.at(':') || this.at('->')) {
      this.advance();
      if (this.at(':') || this.at('->')) return this.unexpected(this.peek(), BOTH_TARGET_SYNTAXES);
      target = this.parseFullTypeExpr();
      members = this.optionalBlock(member);
    } else if (this.eat(':=')) {
      computed = this.parseGenExpr();
      this.endShort();
    } else if (this.at('{')) {
      members = this.parseBlock(member);
    } else if (this.at('=')) {
      return this.unexpected(
        this.peek(),
        "a computed global is declared with ':=': global name := expression",
      );
    } else {
      return this.missing("':'", 'declare the global type: global name: type');
    }
    if (target === null && computed === null && !members.some((m) => m.kind === 'Using')) {
      return this.fail(`missing type declaration for global '${name.name}'`, nameToken.start);
    }
    return create('GlobalDecl', this.spanFrom(start), {
      name,
      required,
      cardinality,
      target,
      computed,
      members,
    });
  }

  protected parsePermission(topLevel: boolean): PermissionDecl {
    const start = this.advance().start; // permission
    const name = this.parseNodeName();
    this.checkDeclName(name, topLevel);
    const members = this.optionalBlock(() => {
      if (this.atLeading('annotation')) return this.parseAnnotationValue();
      return this.memberError('an annotation');
    });
    return create('PermissionDecl', this.spanFrom(start), { name, members });
  }
}
