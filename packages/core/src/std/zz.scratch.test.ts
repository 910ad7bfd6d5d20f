import { openIssuesDb, type IssuesDb } from '../query/__tests__/issues-db';
let db: IssuesDb;
beforeAll(async () => { db = await openIssuesDb(); }, 120_000);
afterAll(() => db?.tdb.dispose());
const queries = [
  "select Issue { number } order by .number limit 2",
  "select Issue { name } order by .name limit 3",
  "select max(Issue.time_estimate)", "select sum(Issue.time_estimate)", "select avg(Issue.time_estimate)",
  "select Issue { number, status: { name } } filter .status.name = 'Open' limit 1",
  "select min(Issue.status.name)",
  "select count(Issue) > 1", "select array_agg(Issue.number order by Issue.number)[0]",
  "select User.name ++ '!' order by User.name",
  "select <str>Issue.start_date limit 1", "select datetime_current() > <datetime>'2000-01-01T00:00:00Z'",
  "select Issue { number } filter .number in {'1', '2'}",
  "select str_upper(User.name) order by User.name",
  "select (select User filter .name = 'Yury').name[0]",
  "select len(User.name) order by User.name",
  "select Issue.due_date - <datetime>'2000-01-01T00:00:00Z' limit 1",
  "select Issue.body like '%' limit 1",
  "select <json>Issue { number } limit 1",
  "select to_json('{\"a\": 1}')['a']", "select to_json('{\"a\": 1}')['b']",
  "select <int64>to_json('5')", "select <str>to_json('5')",
  "select json_get(to_json('{\"a\": {\"b\": 2}}'), 'a', 'b')",
  "select sum(<int64>{})", "select count(<str>{})", "select max(<str>{})",
  "select 1 if true else 2", "select <optional str>$x ?? 'none'",
];
test('scratch', async () => {
  for (const q of queries) {
    try { console.log(q, '=>', JSON.stringify(await db.run(q))); }
    catch (e) { console.log(q, '=> ERROR', (e as Error).constructor.name, (e as {type?: string}).type, (e as Error).message.slice(0, 160)); }
  }
}, 120_000);
