/**
 * ddl-parser: EdgeQL DDL text → DDL commands (./ddl-ast), on the SDL parser (a created
 * declaration or member is parsed as SDL in DDL form). Every error is a `SchemaSyntaxError` with
 * the line and column in the text.
 */
import type { Expr, ObjectRef, TypeExpr } from './ast';
import type {
  AlterCommand,
  DdlCommand,
  DeclarationKind,
  DeclarationRef,
  MemberRef,
} from './ddl-ast';
import { memberKey, signatureText } from './ddl-printer';
import { objectRef } from './quote';
import { SchemaParser } from './sdl-parser';
import type { Declaration, ObjectTypeMember, PointerMember } from './sdl-ast';
import type { Position } from './tokens';

/** What an `alter` block alters: which members it may create. */
type AlterContext = 'declaration' | 'pointer';

export class DdlParser extends SchemaParser {
  constructor(source: string) {
    super(source);
    this.ddl = true;
  }

  /** Statements up to the end of the text, or up to a `}` when `inBlock` (left unconsumed). */
  parseDdl(inBlock = false): DdlCommand[] {
    const commands: DdlCommand[] = [];
    for (;;) {
      while (this.eat(';')) {
        // empty statements are allowed
      }
      if (this.at('EOF') || (inBlock && this.at('}'))) return commands;
      commands.push(this.parseCommand());
    }
  }

  private parseCommand(): DdlCommand {
    const start = this.peek().start;
    if (this.eatKeyword('create')) {
      if (this.eatKeyword('module')) {
        const name = this.parseModuleName();
        this.endShort();
        return { kind: 'CreateModule', span: this.spanFrom(start), name };
      }
      if (this.eatKeyword('extension')) {
        const extension = this.parseExtensionRest(start);
        return { kind: 'CreateExtension', span: this.spanFrom(start), extension };
      }
      if (this.eatKeyword('future')) {
        const name = this.parseIdentifier('a future feature name');
        this.endShort();
        return { kind: 'CreateFuture', span: this.spanFrom(start), name };
      }
      const declaration = this.parseDeclaration(true);
      const [module, named] = this.unqualified(declaration, start);
      return { kind: 'CreateDeclaration', span: this.spanFrom(start), module, declaration: named };
    }
    if (this.eatKeyword('drop')) {
      if (this.eatKeyword('module')) {
        const name = this.parseModuleName();
        this.endShort();
        return { kind: 'DropModule', span: this.spanFrom(start), name };
      }
      if (this.eatKeyword('extension')) {
        const name = this.parseIdentifier('an extension name');
        this.endShort();
        return { kind: 'DropExtension', span: this.spanFrom(start), name };
      }
      if (this.eatKeyword('future')) {
        const name = this.parseIdentifier('a future feature name');
        this.endShort();
        return { kind: 'DropFuture', span: this.spanFrom(start), name };
      }
      const ref = this.parseDeclarationRef();
      this.endShort();
      return { kind: 'DropDeclaration', span: this.spanFrom(start), ref };
    }
    if (this.eatKeyword('alter')) {
      const ref = this.parseDeclarationRef();
      const commands = this.parseAlterBlock('declaration');
      return { kind: 'AlterDeclaration', span: this.spanFrom(start), ref, commands };
    }
    return this.unexpected(this.peek(), 'expected create, alter or drop');
  }

  /** A created declaration's module, and the declaration with its own name unqualified. */
  private unqualified(decl: Declaration, start: Position): [string, Declaration] {
    if (decl.kind === 'PointerDecl') {
      const at = decl.name.lastIndexOf('::');
      if (at < 0) return this.fail(`name the module of ${decl.name}: module::name`, start);
      return [decl.name.slice(0, at), { ...decl, name: decl.name.slice(at + 2) }];
    }
    if (decl.kind === 'ModuleDecl')
      return this.fail('a module is created with: create module name', start);
    if (decl.name.module === null)
      return this.fail(`name the module of ${decl.name.name}: module::${decl.name.name}`, start);
    return [decl.name.module, { ...decl, name: { ...decl.name, module: null } } as Declaration];
  }

  private parseDeclarationRef(): DeclarationRef {
    const start = this.peek().start;
    let declKind: DeclarationKind;
    if (this.eatKeyword('type')) declKind = 'type';
    else if (this.eatKeyword('scalar')) {
      this.expectKeyword('type');
      declKind = 'scalar type';
    } else if (this.eatKeyword('abstract')) {
      const word = this.advance().value;
      if (word === 'constraint') declKind = 'abstract constraint';
      else if (word === 'annotation') declKind = 'abstract annotation';
      else if (word === 'link') declKind = 'abstract link';
      else if (word === 'property') declKind = 'abstract property';
      else
        return this.unexpected(
          this.previous(),
          'expected constraint, annotation, link or property',
        );
    } else if (this.eatKeyword('function')) declKind = 'function';
    else if (this.eatKeyword('alias')) declKind = 'alias';
    else if (this.eatKeyword('global')) declKind = 'global';
    else if (this.eatKeyword('permission')) declKind = 'permission';
    else
      return this.unexpected(
        this.peek(),
        'expected type, scalar type, abstract constraint, abstract annotation, abstract link, abstract property, function, alias, global or permission',
      );
    const nameStart = this.peek().start;
    const ref: ObjectRef = this.parseNodeName(true);
    if (ref.module === null) return this.fail(`name the module: module::${ref.name}`, nameStart);
    let signature: string | null = null;
    if (declKind === 'function') {
      if (!this.at('('))
        return this.missing("'('", 'name a function with its parameters: f(a: str)');
      signature = signatureText(this.parseParams());
    }
    return {
      kind: 'DeclarationRef',
      span: this.spanFrom(start),
      declKind,
      module: ref.module,
      name: ref.name,
      signature,
    };
  }

  private parseAlterBlock(context: AlterContext): AlterCommand[] {
    this.expect('{');
    const commands: AlterCommand[] = [];
    for (;;) {
      while (this.eat(';')) {
        // empty statements are allowed
      }
      if (this.eat('}')) break;
      if (this.at('EOF')) return this.missing("'}'");
      commands.push(this.parseAlterCommand(context));
    }
    this.endShort();
    return commands;
  }

  private fill(): Expr | null {
    return this.eatKeyword('using') ? this.parseParenExpr() : null;
  }

  private parseAlterCommand(context: AlterContext): AlterCommand {
    const start = this.peek().start;
    const done = <T>(command: T): T => {
      this.endShort();
      return command;
    };
    const span = () => this.spanFrom(start);
    if (this.eatKeyword('rename')) {
      this.expectKeyword('to');
      const name = this.parseNodeName(true);
      return done({ kind: 'RenameTo', span: span(), name });
    }
    if (this.atKeyword('extending')) {
      const bases = this.parseExtending(true);
      return done({ kind: 'SetExtending', span: span(), bases });
    }
    if (this.atKeyword('using')) {
      if (this.at('(', 1)) {
        this.advance();
        const expr = this.parseParenExpr();
        return done({ kind: 'SetExpression', span: span(), expr });
      }
      const code = this.parseFunctionCode();
      return { kind: 'SetCode', span: span(), code };
    }
    if (this.atKeyword('on')) {
      const action = this.parseOnDelete();
      const which = action.kind === 'OnTargetDelete' ? 'target' : 'source';
      return { kind: 'SetOnDelete', span: span(), which, action };
    }
    if (this.eatKeyword('set')) {
      // `set name := value` first: a field may be called `required` or `multi`.
      if (this.isIdentifierToken(this.peek()) && this.at(':=', 1)) {
        const field = this.parseSetField();
        return { kind: 'SetFieldCommand', span: span(), field };
      }
      if (this.eatKeyword('abstract'))
        return done({ kind: 'SetAbstract', span: span(), abstract: true });
      if (this.eatKeyword('required'))
        return done({ kind: 'SetRequired', span: span(), required: true, fill: this.fill() });
      if (this.eatKeyword('optional'))
        return done({ kind: 'SetRequired', span: span(), required: false, fill: null });
      if (this.atKeyword('single') || this.atKeyword('multi')) {
        const cardinality = this.advance().value as 'single' | 'multi';
        return done({ kind: 'SetCardinality', span: span(), cardinality });
      }
      if (this.atKeyword('type') && !this.at(':=', 1)) {
        this.advance();
        const type: TypeExpr = this.parseFullTypeExpr();
        return done({ kind: 'SetType', span: span(), type, fill: this.fill() });
      }
      const field = this.parseSetField();
      return { kind: 'SetFieldCommand', span: span(), field };
    }
    if (this.eatKeyword('reset')) {
      if (this.eatKeyword('abstract'))
        return done({ kind: 'SetAbstract', span: span(), abstract: false });
      if (this.eatKeyword('optionality'))
        return done({ kind: 'SetRequired', span: span(), required: null, fill: null });
      if (this.eatKeyword('cardinality'))
        return done({ kind: 'SetCardinality', span: span(), cardinality: null });
      if (this.eatKeyword('type')) {
        return done({ kind: 'SetType', span: span(), type: null, fill: null });
      }
      if (this.eatKeyword('expression'))
        return done({ kind: 'SetExpression', span: span(), expr: null });
      if (this.eatKeyword('on')) {
        const which = this.eatKeyword('target')
          ? 'target'
          : (this.expectKeyword('source'), 'source');
        this.expectKeyword('delete');
        return done({ kind: 'SetOnDelete', span: span(), which, action: null });
      }
      const name = this.parseIdentifier('a field name');
      return done({ kind: 'ResetField', span: span(), name });
    }
    if (this.eatKeyword('create')) {
      const member = this.parseCreatedMember(context);
      return { kind: 'CreateMember', span: span(), member };
    }
    if (this.eatKeyword('drop')) {
      if (this.eatKeyword('extending'))
        return done({ kind: 'SetExtending', span: span(), bases: [] });
      const ref = this.parseMemberRef();
      return { kind: 'DropMember', span: span(), ref };
    }
    if (this.eatKeyword('alter')) {
      const what = this.eatKeyword('property')
        ? 'property'
        : this.eatKeyword('link')
          ? 'link'
          : null;
      if (what === null)
        return this.unexpected(
          this.peek(),
          'expected property or link: only pointers are altered inside a declaration',
        );
      const key = this.parsePtrIdentifier('a property or link name');
      const ref: MemberRef = { kind: 'MemberRef', span: span(), what, key };
      const commands = this.parseAlterBlock('pointer');
      return { kind: 'AlterMember', span: span(), ref, commands };
    }
    return this.unexpected(
      this.peek(),
      'expected rename to, extending, set, reset, using, on, create, drop or alter',
    );
  }

  private parseCreatedMember(context: AlterContext): ObjectTypeMember | PointerMember {
    if (this.atLeading('annotation')) return this.parseAnnotationValue();
    if (
      this.atLeading('constraint') ||
      (this.atKeyword('delegated') && this.atKeyword('constraint', 1))
    )
      return this.parseConcreteConstraint();
    if (this.atLeading('index') || (this.atKeyword('deferred') && this.atKeyword('index', 1)))
      return this.parseConcreteIndex();
    if (this.atKeyword('access') && this.atKeyword('policy', 1)) return this.parseAccessPolicy();
    if (this.atLeading('trigger')) return this.parseTrigger();
    if (this.atLeading('rewrite')) return this.parseRewrite();
    return this.parsePointer(context === 'pointer' ? 'link-property' : 'type');
  }

  /** After `drop`: the member it names; a constraint or index by its head. */
  private parseMemberRef(): MemberRef {
    const start = this.peek().start;
    const ref = (what: MemberRef['what'], key: string): MemberRef => {
      this.endShort();
      return { kind: 'MemberRef', span: this.spanFrom(start), what, key };
    };
    if (this.eatKeyword('property')) return ref('property', this.parsePtrIdentifier());
    if (this.eatKeyword('link')) return ref('link', this.parsePtrIdentifier());
    if (this.atKeyword('access') && this.atKeyword('policy', 1)) {
      this.advance();
      this.advance();
      return ref('access policy', this.parseIdentifier('a policy name'));
    }
    if (this.eatKeyword('trigger')) return ref('trigger', this.parseIdentifier('a trigger name'));
    if (this.eatKeyword('annotation')) return ref('annotation', objectRef(this.parseNodeName()));
    if (this.eatKeyword('rewrite')) {
      const kinds: string[] = [];
      do kinds.push(this.parseAnyIdentifier('insert or update'));
      while (this.eat(','));
      return ref('rewrite', kinds.sort().join(', '));
    }
    // A constraint or index is named by its head; parsed as one, then keyed as printed.
    if (this.atKeyword('constraint') || this.atKeyword('delegated')) {
      const node = this.parseConcreteConstraint();
      return {
        kind: 'MemberRef',
        span: this.spanFrom(start),
        what: 'constraint',
        key: memberKey(node),
      };
    }
    if (this.atKeyword('index') || this.atKeyword('deferred')) {
      const node = this.parseConcreteIndex();
      return { kind: 'MemberRef', span: this.spanFrom(start), what: 'index', key: memberKey(node) };
    }
    return this.unexpected(
      this.peek(),
      'expected property, link, constraint, index, access policy, trigger, rewrite, annotation or extending',
    );
  }
}
