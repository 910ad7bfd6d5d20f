/**
 * bind/ddl: the binder's `ddl` mode as schema/storage uses it — a schema expression (a column
 * default, a CHECK, an expression index, a domain check) bound against one row.
 *
 * Input: the SchemaIndex, the module names resolve in, and what the row is (`RowSubject`).
 * Output: IR from the same binder as queries (names, paths, std overloads and casts, SDL
 * functions inlined), plus the path ids of the row's own sets, which the planner binds to the
 * row's columns (plan/planner `planRowExpression`) instead of reading tables.
 * What the `ddl` mode refuses (./context): object type roots, globals, parameters, std overloads
 * not marked `ddl` (aggregates) — `InvalidDefinitionError`. What still needs another table (a path
 * through a link, a query) binds, and the planner refuses it.
 */
import type * as ql from '../../syntax';
import { InvalidDefinitionError } from '../../errors';
import type { Binding, IrExpr } from '../ir';
import { MANY, ONE } from '../ir';
import type { SchemaIndex } from '../schema-index';
import { BindContext, rootScope, type Scope } from './context';
import { bindExpr } from './expr';
import { bindingRef, subjectScope } from './names';
import { pointerStep } from './paths';
import type { DdlSubject } from '../../storage/ddl-compiler';

/** What `__subject__`, `.x` and `@x` mean in a DDL expression (the layout's `DdlSubject`). */
export type RowSubject = DdlSubject;

/** The sets of the row a DDL expression may read, by path id: the planner binds them to columns. */
export interface RowPaths {
  /** The row's object (`__subject__` of an object subject, the source of a pointer subject). */
  readonly object: { readonly pathId: string; readonly type: string } | null;
  /** `__subject__` of a pointer subject (its step) or of a value subject. */
  readonly subject: { readonly pathId: string; readonly expr: IrExpr } | null;
}

/** One DDL expression's binder: a scope over the row, shared by a constraint's parts. */
export class DdlBinder {
  private constructor(
    readonly ctx: BindContext,
    readonly scope: Scope,
    readonly row: RowPaths,
  ) {}

  static create(index: SchemaIndex, module: string, subject: RowSubject): DdlBinder {
    const ctx = new BindContext(index, 'ddl');
    const root = rootScope(module);
    switch (subject.kind) {
      case 'none':
        return new DdlBinder(ctx, root, { object: null, subject: null });
      case 'value': {
        const binding: Binding = {
          id: ctx.freshId(),
          name: '__subject__',
          expr: { kind: 'SetLiteral', type: subject.type, card: ONE, elements: [] },
          iteration: false,
        };
        const ref = { ...bindingRef(binding), card: ONE };
        return new DdlBinder(
          ctx,
          { ...root, subject: ref },
          { object: null, subject: { pathId: ref.pathId, expr: ref } },
        );
      }
      case 'object':
      case 'pointer': {
        const info = index.objectType(subject.type);
        if (!info) throw new InvalidDefinitionError(`type '${subject.type}' does not exist`);
        const pathId = `__subject__:${subject.type}`;
        const object: IrExpr = {
          kind: 'TypeRoot',
          type: { kind: 'object', name: subject.type },
          card: MANY,
          objectType: subject.type,
          pathId,
        };
        const scope = subjectScope(root, object, null);
        const rowObject = { pathId, type: subject.type };
        if (subject.kind === 'object') {
          return new DdlBinder(ctx, scope, { object: rowObject, subject: null });
        }
        const pointer = info.pointers.get(subject.pointer);
        if (!pointer) {
          throw new InvalidDefinitionError(
            `${subject.type} has no property or link '${subject.pointer}'`,
          );
        }
        const step = pointerStep(
          ctx,
          scope,
          scope.subject as IrExpr,
          pathId,
          subject.type,
          pointer,
        );
        const inner: Scope = {
          ...subjectScope(root, step, pointer.kind === 'link' ? step : null),
          singletons: new Set([pathId, step.pathId]),
        };
        return new DdlBinder(ctx, inner, {
          object: rowObject,
          subject: { pathId: step.pathId, expr: inner.subject as IrExpr },
        });
      }
    }
  }

  bind(expr: ql.Expr): IrExpr {
    return bindExpr(this.ctx, this.scope, expr);
  }

  /** The same row, with `__subject__` (and `.x`) meaning `subject` (`constraint ... on (e)`). */
  withSubject(subject: IrExpr): DdlBinder {
    return new DdlBinder(
      this.ctx,
      { ...this.scope, subject: { ...subject, card: ONE } as IrExpr },
      this.row,
    );
  }

  /**
   * The same row, in `module`, with `names` bound to values (a constraint's parameters): each
   * name is its value in place, as an inlined function's parameter is in this mode.
   */
  withNames(module: string, names: ReadonlyMap<string, IrExpr>): DdlBinder {
    const bound = new Map(this.scope.names);
    for (const [name, expr] of names) {
      bound.set(name, { id: this.ctx.freshId(), name, expr, iteration: false, transparent: true });
    }
    return new DdlBinder(this.ctx, { ...this.scope, module, names: bound }, this.row);
  }
}
