import { printSql, printStatement, sql, type SqlExpr } from './index';
import { mapChildren, someExpr, transformSql } from './transform';

const sub = sql.select({
  targets: [sql.target(sql.col('a', 't'))],
  from: [sql.table(null, 'x', 't')],
  where: sql.bin('=', sql.col('b', 't'), sql.param(1)),
});

describe('sql transform', () => {
  it('finds expressions inside subqueries', () => {
    const e = sql.bin('+', sql.num(1), sql.scalar(sub));
    expect(someExpr(e, (x) => x.kind === 'Param')).toBe(true);
    expect(someExpr(e, (x) => x.kind === 'SubLink')).toBe(true);
    expect(someExpr(sql.bin('+', sql.num(1), sql.num(2)), (x) => x.kind === 'SubLink')).toBe(false);
  });

  it('rewrites top-down and keeps untouched nodes', () => {
    const e = sql.and(sql.col('a', 'r'), sql.exists(sub), sql.col('c', 's'));
    const out = transformSql(e, {
      expr: (x): SqlExpr | undefined =>
        x.kind === 'ColumnRef' && x.table === 'r' ? { ...x, table: null } : undefined,
    });
    expect(printSql(out)).toBe(printSql(e).replace('"r"."a"', '"a"'));
    // The subquery had nothing to rewrite: the very same object.
    const second = (x: SqlExpr) => (x.kind === 'BoolOp' ? x.args[1] : null);
    expect(second(out)).toBe(second(e));
    expect(second(e)).not.toBeNull();
  });

  it('maps the children of statements', () => {
    const stmt = sql.update({
      table: { schema: 'public', name: 't' },
      alias: 't',
      set: [{ column: 'a', value: sql.param(1) }],
      from: [],
      where: sql.bin('=', sql.col('id', 't'), sql.param(2)),
      returning: [],
    });
    const renumbered = transformSql(stmt, {
      expr: (x) => (x.kind === 'Param' ? sql.param(x.index + 10) : undefined),
    });
    expect(printStatement(renumbered)).toContain('$11');
    expect(printStatement(renumbered)).toContain('$12');
    const same = mapChildren(stmt, { expr: (x) => x, from: (f) => f, statement: (s) => s });
    expect(same).toBe(stmt);
  });
});
