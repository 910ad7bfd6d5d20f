/**
 * storage/indexes: a type's `index on (...)` declarations as indexes (`fts::index` → a GIN index
 * over a tsvector, `pg::<method>` → that method); an index on a single link alone is skipped, the
 * link's own index covers it.
 */
import * as ql from '../syntax';
import { InvalidDefinitionError } from '../errors';
import type { Index, ObjectType, Schema } from '../model/schema';
import { pgType, sql, type SqlExpr } from '../sql/ast';
import type { QName } from '../sql/codegen/ddl';
import { pgName, shortHash } from '../sql/codegen/names';
import { FTS_INDEX, FTS_LANGUAGES, FTS_WITH_OPTIONS } from '../model/fts';
import { ddlCompiler, type ScalarContext } from './ddl-compiler';
import { splitName } from './types';
import type { OwnedIndex } from './layout-types';
import { exceptWhere, indexElements, spanPos } from './constraints';

export function addIndexes(
  schema: Schema,
  type: ObjectType,
  table: QName,
  indexes: OwnedIndex[],
): void {
  const [module, short] = splitName(type.name);
  const ctx: ScalarContext = {
    schema,
    module,
    mode: 'index',
    subject: { kind: 'object', type: type.name },
  };
  const seen = new Set<string>();
  for (const index of type.indexes) {
    // `fts::index on (())` (Gel's placeholder on an abstract base, which subtypes override) has
    // no document: there is nothing to index.
    if (index.kind === FTS_INDEX && ftsDocuments(index.expr).length === 0) continue;
    const elements =
      index.kind === FTS_INDEX
        ? [ftsDocument(index.expr, ctx)]
        : indexElements(schema, type, index.expr, ctx);
    // An index on a single link alone duplicates the link's own index.
    if (elements.length === 1 && isSingleLinkColumn(type, elements[0] as SqlExpr) && !index.except)
      continue;
    const where = exceptWhere(index.except, ctx);
    // A kind of index is part of its name: `fts::index` and a plain index on one expression differ.
    const suffix = index.kind === null ? 'index' : index.kind.replace('::', '.');
    const name = pgName(`${short}.${indexSlug(index)}.${suffix}`);
    if (seen.has(name)) continue;
    seen.add(name);
    indexes.push({
      subject: type.name,
      kind: 'index',
      label: `index on (${ql.printExpression(index.expr)})`,
      spec: { table, name, unique: false, elements, where, ...indexMethod(index.kind) },
    });
  }
}

/** `pg::gin` → `gin`; `fts::index` is a GIN index over a tsvector. */
function indexMethod(kind: string | null): { method?: string } {
  if (kind === FTS_INDEX) return { method: 'gin' };
  if (kind?.startsWith('pg::')) return { method: kind.slice('pg::'.length) };
  return {};
}

/**
 * The tsvector of an `fts::index`: each `fts::with_options(text, language := fts::Language.x,
 * weight_category := fts::Weight.y)` of the (tuple of) documents becomes
 * `setweight(to_tsvector('<config>'::regconfig, coalesce(text, '')), 'y')`, concatenated.
 */
function ftsDocument(expr: ql.Expr, ctx: ScalarContext): SqlExpr {
  const vectors = ftsDocuments(expr).map((doc) => {
    const name = doc.kind === 'FunctionCall' ? `${doc.func.module ?? ''}::${doc.func.name}` : '';
    if (doc.kind !== 'FunctionCall' || name !== FTS_WITH_OPTIONS || doc.args.length !== 1) {
      throw new InvalidDefinitionError(
        `an fts::index is on fts::with_options(...) documents, not \`${ql.printExpression(doc)}\``,
        { position: spanPos(doc.span) },
      );
    }
    const member = (arg: string, enumName: string): string | null => {
      const value = doc.namedArgs.find((a) => a.name === arg)?.value;
      if (!value) return null;
      const path = value.kind === 'Path' ? value : null;
      const subject = path?.subject?.kind === 'ObjectRef' ? path.subject : null;
      const step = path?.steps[0];
      const written = subject ? `${subject.module ?? 'fts'}::${subject.name}` : '';
      if (written !== enumName || path?.steps.length !== 1 || step?.kind !== 'Ptr') {
        throw new InvalidDefinitionError(`${arg} must be a member of ${enumName}`, {
          position: spanPos(value.span),
        });
      }
      return step.name;
    };
    const language = member('language', 'fts::Language');
    const config = language === null ? null : FTS_LANGUAGES[language];
    if (!config) {
      throw new InvalidDefinitionError('fts::with_options needs language := fts::Language.<x>', {
        position: spanPos(doc.span),
      });
    }
    const text = ddlCompiler().compileScalar(doc.args[0] as ql.Expr, ctx).sql;
    const vector = sql.func('to_tsvector', [
      sql.cast(sql.text(config), pgType('regconfig')),
      sql.func('coalesce', [text, sql.text('')]),
    ]);
    const weight = member('weight_category', 'fts::Weight');
    return weight === null ? vector : sql.func('setweight', [vector, sql.text(weight)]);
  });
  return vectors.reduce((acc, v) => sql.bin('||', acc, v));
}

/** The documents of an `fts::index`: a tuple's elements, or the one expression. */
function ftsDocuments(expr: ql.Expr): readonly ql.Expr[] {
  return expr.kind === 'TupleLiteral' ? expr.elements : [expr];
}

function isSingleLinkColumn(type: ObjectType, e: SqlExpr): boolean {
  if (e.kind !== 'ColumnRef') return false;
  const p = type.pointers.find((x) => x.name === e.name);
  return p?.kind === 'link' && p.cardinality === 'one';
}

/** `name` for `.name`, `name,email` for `(.name, .email)`, else a hash of the expression. */
function indexSlug(index: Index): string {
  const plain = (e: ql.Expr): string | null =>
    e.kind === 'Path' &&
    e.subject === null &&
    e.steps.length === 1 &&
    e.steps[0]?.kind === 'Ptr' &&
    e.steps[0].via === '.'
      ? e.steps[0].name
      : null;
  const exceptPart = index.except ? `.${shortHash(ql.printExpression(index.except))}` : '';
  const one = plain(index.expr);
  if (one !== null) return one + exceptPart;
  if (index.expr.kind === 'TupleLiteral') {
    const names = index.expr.elements.map(plain);
    if (names.every((n) => n !== null)) return names.join(',') + exceptPart;
  }
  return `expr.${shortHash(ql.printExpression(index.expr))}${exceptPart}`;
}
