// Deterministic inputs for bench/parse: a 50-type SDL schema and an EdgeQL corpus over it.
// Same input every run (no randomness), so runs are comparable.

const SCALARS = [
  'str',
  'int64',
  'float64',
  'bool',
  'datetime',
  'uuid',
  'json',
  'decimal',
  'int32',
  'cal::local_date',
];

/** A realistic schema of `types` object types: properties of many scalars, links, constraints, indexes. */
export function schemaSdl(types = 50) {
  const out = [
    'module default {',
    '  scalar type Status extending enum<Draft, Active, Archived>;',
    '  abstract type Timestamped {',
    '    required created_at: datetime { default := datetime_current(); readonly := true; }',
    '    updated_at: datetime;',
    '  }',
  ];
  for (let i = 0; i < types; i++) {
    out.push(`  type T${i} extending Timestamped {`);
    out.push(`    required name: str { constraint exclusive; constraint max_len_value(200); }`);
    out.push(`    status: Status { default := Status.Draft; }`);
    for (let p = 0; p < 6; p++) out.push(`    p${p}: ${SCALARS[(i + p) % SCALARS.length]};`);
    out.push(`    score: int64 { default := 0; constraint min_value(0); }`);
    if (i > 0) out.push(`    parent: T${i - 1} { on target delete allow; }`);
    if (i > 1) out.push(`    multi related: T${i - 2};`);
    out.push(`    index on (.status);`);
    out.push(`    annotation title := 'Type number ${i}';`);
    out.push('  }');
  }
  out.push('}');
  return out.join('\n') + '\n';
}

/** About `kb` KB of EdgeQL statements over the schema above. */
export function edgeqlCorpus(kb = 100) {
  const statements = [];
  let size = 0;
  for (let i = 0; size < kb * 1024; i++) {
    const t = `T${i % 50}`;
    const s = [
      `select ${t} { id, name, status, score, parent: { name }, related: { name } limit 5 } filter .name ilike <str>$q and .score >= 10 order by .score desc then .name offset 40 limit 20;`,
      `insert ${t} { name := <str>$name, score := 2 ^ 3 * (1 + 2), status := Status.Active } unless conflict on .name else (update ${t} set { score := .score + 1 });`,
      `with x := (select ${t} filter .id = <uuid>$id), n := count(x.related) select { total := n, names := array_agg(x.related.name), first := (select x.related order by .name limit 1).name };`,
      `for item in {1, 2, 3} union (update ${t} filter .score = item set { score += 1, updated_at := datetime_current() });`,
      `group ${t} { name } using s := .status by s;`,
    ][i % 5];
    statements.push(s);
    size += s.length + 1;
  }
  return statements.join('\n');
}
