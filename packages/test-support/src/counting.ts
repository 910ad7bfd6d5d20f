/**
 * A database (anything with a `query(sql, ...)` method) wrapped to record the SQL of every
 * `query` call, in order: how a suite counts the statements a request costs. Every other member
 * is the database's own, bound to it.
 */
export function countingQueries<D extends { query: (sql: never, ...rest: never[]) => unknown }>(
  database: D,
): { db: D; sent: string[] } {
  const sent: string[] = [];
  const db = new Proxy(database, {
    get(target, key) {
      if (key === 'query') {
        return (sql: string, ...rest: unknown[]) => {
          sent.push(sql);
          return (target.query as (...a: unknown[]) => unknown)(sql, ...rest);
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db, sent };
}
