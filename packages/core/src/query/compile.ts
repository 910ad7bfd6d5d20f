/**
 * query/compile: the compiler's entry point, `compileQuery` (the `CompileQuery` of ./api).
 *
 * text ─syntax.parseQuery→ statement ─bind (schema index)→ IR ─plan (access hook)→ SQL AST
 *      ─printStatement→ CompiledQuery
 *
 * Input: a built Schema, EdgeQL text (exactly one statement), options (requested cardinality,
 * access mode). Output: a CompiledQuery: one SQL statement answering one row with one column
 * `result` (the JSON text of the result array), its parameters by slot, the inferred cardinality
 * and result type. Refusals happen here, before anything runs: a possibly-many result when
 * `atMostOne`/`one` was asked (ResultCardinalityMismatchError, the rule of ./cardinality).
 * Invariant: every failure is a QueryError subclass (with a position where the text has one).
 */
import { QueryError } from '../errors';
import type { Schema, TypeRef } from '../model/schema';
import { printStatement } from '../sql';
import * as ql from '../syntax';
import type { CompileAccess, CompileOptions, CompiledQuery } from './api';
import { bindStatement } from './bind';
import { aliasTypes } from './bind/alias-types';
import { refuseCardinality } from './cardinality';
import { typeEnv } from './ir';
import { printIrType } from './bind/types';
import { describedCardinality, describeElement, describeInput } from './describe';
import { cardName, type IrExpr } from './ir';
import { planQuery } from './plan/planner';
import { schemaIndex } from './schema-index';

const SERVICE: CompileAccess = { policies: false };

export interface CompileDetails extends CompiledQuery {
  /** The same SQL, a clause per line (golden files, `svc query --explain`). */
  readonly prettySql: string;
}

export function compileQuery(
  schema: Schema,
  text: string,
  options: CompileOptions = {},
): CompiledQuery {
  const { prettySql: _, ...compiled } = compile(schema, text, options, false);
  return compiled;
}

/** compileQuery, plus the SQL printed a clause per line. */
export function compileQueryDetails(
  schema: Schema,
  text: string,
  options: CompileOptions = {},
): CompileDetails {
  return compile(schema, text, options, true);
}

/**
 * A result that has values but no type anything determines (`array_agg({})`: an array of
 * what?) is Gel's QueryError. An untyped `{}` has no values and answers `[]`; the same call
 * inside a typed expression (`count(array_agg({}))`) is fine, as in Gel.
 */
function refuseIndeterminate(root: IrExpr): void {
  if (root.type.kind === 'empty' && root.card.min > 0) {
    throw new QueryError('expression returns value of indeterminate type', {
      hint: 'Consider using an explicit type cast.',
    });
  }
}

function compile(
  schema: Schema,
  text: string,
  options: CompileOptions,
  pretty: boolean,
): CompileDetails {
  try {
    const statements = ql.parseQuery(text);
    if (statements.length !== 1) {
      throw new QueryError(
        statements.length === 0 ? 'the query is empty' : 'send one statement per query',
      );
    }
    const index = schemaIndex(schema);
    const access = options.access ?? SERVICE;
    const bound = bindStatement(index, statements[0] as ql.Statement, {
      policies: access.policies,
      allowUserSpecifiedId: options.allowUserSpecifiedId === true,
    });
    const ir = bound.query;
    refuseIndeterminate(ir.root);
    const card = ir.root.card;
    refuseCardinality(cardName(card), options.cardinality ?? 'many');
    const plan = planQuery(index, ir, {
      access,
      env: typeEnv(index),
      policies: bound.policies,
      aliasTypes: () => aliasTypes(index),
      paramCount: () => bound.params().length,
      singleLinks: options.singleLinks ?? 'array',
    });
    return {
      sql: printStatement(plan.statement),
      ...(plan.elements ? { elementsSql: printStatement(plan.elements) } : {}),
      prettySql: pretty ? printStatement(plan.statement, { pretty: true }) : '',
      // The statement's parameters, then the globals its access policies read.
      params: bound.params().map((p) => ({
        source: p.source,
        name: p.name,
        type: printIrType(p.type),
        valueType: p.type as TypeRef,
        required: p.required,
      })),
      cardinality: cardName(card),
      resultType: printIrType(ir.root.type),
      writes: ir.writes,
      ...(options.describe
        ? {
            description: {
              input: describeInput(index, bound.params()),
              output: describeElement(index, ir.root),
              cardinality: describedCardinality(card),
            },
          }
        : {}),
    };
  } catch (err) {
    if (err instanceof QueryError) throw err;
    if (err instanceof RangeError) {
      throw new QueryError('the query is nested too deeply to compile', { cause: err });
    }
    // A compiler bug must still answer as a query error, never as a 500 with a stack.
    const message = err instanceof Error ? err.message : String(err);
    throw new QueryError(`the query could not be compiled: ${message}`, { cause: err });
  }
}
