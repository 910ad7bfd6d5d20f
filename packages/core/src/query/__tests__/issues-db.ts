/**
 * The compiler's result-test database: the issues fixture schema (../__fixtures__/issues.esdl)
 * migrated with svc's own migrator and filled with plain SQL, and `run(query, variables)` which
 * compiles a query, binds its variables by name as the engine does (JSON text in `$n`), runs it
 * and parses the one `result` value.
 */
import { createDefaultMigrator, buildSchema, type Schema } from '../../schema';
import { createTestDatabase, type TestDatabase } from '../../testing';
import type { CompileOptions } from '../api';
import { compileQuery } from '../compile';
import { runBothForms } from './both-forms';

import { ISSUES_SDL } from './issues-sdl';

export { ISSUES_SDL };

/** Stable ids: `id(7)` is `00000000-0000-0000-0000-000000000007`. */
export const id = (n: number): string => `00000000-0000-0000-0000-${String(n).padStart(12, '0')}`;

export const ELVIS = id(1);
export const YURY = id(2);
export const ANN = id(3);
export const OPEN = id(11);
export const CLOSED = id(12);
export const RELEASE = id(21);
export const BUG = id(22);
export const DOCS = id(23);
export const LOG = id(31);
export const COMMENT = id(41);
export const REPLY = id(42);

const DATA = [
  `insert into "default"."User" (id, name, age, best_friend) values
     ('${ELVIS}', 'Elvis', 30, null), ('${YURY}', 'Yury', 25, '${ELVIS}')`,
  `insert into "default"."Admin" (id, name, age, best_friend, level) values ('${ANN}', 'Ann', null, '${YURY}', 3)`,
  `insert into "default"."User.friends" (source, target, since) values
     ('${ELVIS}', '${YURY}', 2020), ('${YURY}', '${ELVIS}', 2021)`,
  `insert into "default"."Admin.friends" (source, target, since) values ('${ANN}', '${ELVIS}', null)`,
  `insert into "default"."User.nicknames" (source, value) values ('${ELVIS}', 'King'), ('${ELVIS}', 'E')`,
  `insert into "default"."Status" (id, name) values ('${OPEN}', 'Open'), ('${CLOSED}', 'Closed')`,
  `insert into "default"."Issue" (id, name, body, owner, "owner@note", number, status, time_estimate, tags, due_date) values
     ('${RELEASE}', 'Release', 'Ship it', '${ELVIS}', 'lead', '1', '${OPEN}', 3000, '{a,b}', '2020-01-15T10:00:00Z'),
     ('${BUG}', 'Bug', 'It breaks', '${YURY}', null, '2', '${CLOSED}', null, null, null),
     ('${DOCS}', 'Docs', 'Write them', '${ELVIS}', null, '3', '${OPEN}', 60, '{}', null)`,
  `insert into "default"."Issue.watchers" (source, target) values
     ('${RELEASE}', '${YURY}'), ('${BUG}', '${ELVIS}'), ('${BUG}', '${ANN}')`,
  `insert into "default"."Issue.related_to" (source, target) values ('${BUG}', '${RELEASE}')`,
  `insert into "default"."User.todo" (source, target, rank) values ('${ELVIS}', '${RELEASE}', 1), ('${ELVIS}', '${DOCS}', 2)`,
  `insert into "default"."LogEntry" (id, owner, body, spent_time) values ('${LOG}', '${ELVIS}', 'Did it', 50)`,
  `insert into "default"."Comment" (id, owner, body, issue, parent) values
     ('${COMMENT}', '${YURY}', 'Nice', '${RELEASE}', null), ('${REPLY}', '${ELVIS}', 'Thanks', '${RELEASE}', '${COMMENT}')`,
];

export interface IssuesDb {
  readonly schema: Schema;
  readonly tdb: TestDatabase;
  run(
    query: string,
    variables?: Record<string, unknown>,
    options?: CompileOptions,
  ): Promise<unknown>;
}

export async function openIssuesDb(): Promise<IssuesDb> {
  const tdb = await createTestDatabase();
  await createDefaultMigrator().migrate(tdb.db, ISSUES_SDL);
  for (const statement of DATA) await tdb.db.query(statement);
  const schema = buildSchema(ISSUES_SDL);
  return {
    schema,
    tdb,
    async run(query, variables = {}, options = {}) {
      const compiled = compileQuery(schema, query, options);
      const params = compiled.params.map((p) => {
        const value = variables[p.name];
        return value === undefined || value === null ? null : JSON.stringify(value);
      });
      return runBothForms(tdb.db, compiled, params);
    },
  };
}
