// The schema, seed data and the queries of bench/query, shared by every process.
export const SDL = `
type Author {
  required name: str;
  email: str;
  bio: str;
}
type Post {
  required title: str;
  body: str;
  required author: Author;
}
type Reading {
  required name: str;
  required value: int64;
  required ratio: float64;
  required taken_at: datetime;
}
type User {
  required name: str;
}
type Note {
  required title: str;
  body: str;
  owner: uuid;
  access policy owner allow all using (.owner ?= global current_user_id);
}
type LinkedNote {
  required title: str;
  body: str;
  owner: User;
  access policy owner allow all using (.owner.id ?= global current_user_id);
}
`;

export const AUTHORS = 100;
export const POSTS_PER_AUTHOR = 5;
/** Rows of Reading, scanned whole by case (d). */
export const READINGS = 10_000;
/** Rows of Note and of LinkedNote (case (e)), each over OWNERS owners, the user one of them. */
export const NOTES = 10_000;
export const OWNERS = 100;

/** The queries measured, with the variables each request sends (the id is filled in at seed). */
export const CASES = {
  a: {
    label: '(a) select by id, 3-field shape',
    query: 'select Author { name, email, bio } filter .id = <uuid>$id',
    variables: (seed) => ({ id: seed.authorId }),
    cardinality: 'atMostOne',
  },
  b: {
    label: '(b) 100 rows, nested link shape',
    query: 'select Post { title, body, author: { name, email } } order by .title limit 100',
    variables: () => ({}),
    cardinality: 'many',
  },
  c: {
    label: '(c) insert',
    query: 'insert Author { name := <str>$name, email := <str>$email }',
    variables: () => ({ name: 'bench', email: 'bench@example.com' }),
    cardinality: 'many',
  },
  d: {
    label: '(d) filters and computed fields over 10,000 rows',
    query: `select Reading {
      name,
      label := str_upper(.name) ++ ':' ++ <str>(.value % 100),
      score := math::abs(.ratio * 2 - 1) + .value / 10,
      late := .taken_at > <datetime>'2024-06-01T00:00:00Z',
    }
    filter .value % 3 = 0 and str_lower(.name) like '%7%' and .ratio < 0.9
    order by .value desc`,
    variables: () => ({}),
    cardinality: 'many',
    // The baseline is not svc's SQL but what one would write by hand for the same answer (values
    // are positive, so PostgreSQL's % is EdgeQL's): each row's JSON is PostgreSQL's row form, the
    // fast one (svc writes objects the same way, so both answer the same bytes).
    handWritten: `select coalesce(json_agg(to_json(t)), '[]')::text as result from (
        select r.name,
          upper(r.name) || ':' || (r.value % 100)::text as label,
          abs(r.ratio * 2 - 1) + r.value::float8 / 10 as score,
          r.taken_at > '2024-06-01T00:00:00Z'::timestamptz as late
        from "default"."Reading" r
        where r.value % 3 = 0 and lower(r.name) like '%7%' and r.ratio < 0.9
        order by r.value desc
      ) t`,
  },
};

/**
 * Case (e): svc against svc, the same by-id read of a type with an owner policy, by its owner
 * (policies on: a signed-in user whose id owns the row) and with policies off. `e` reads the
 * owner from a uuid property, `e2` through a link to User (`.owner.id`).
 */
export const POLICY_CASES = {
  e: {
    label: '(e) select by id under an owner policy (.owner ?= global current_user_id)',
    query: 'select Note { title, body } filter .id = <uuid>$id',
    variables: (seed) => ({ id: seed.noteId }),
    cardinality: 'atMostOne',
  },
  e2: {
    label: '(e2) the same through a link (.owner.id ?= global current_user_id)',
    query: 'select LinkedNote { title, body } filter .id = <uuid>$id',
    variables: (seed) => ({ id: seed.linkedNoteId }),
    cardinality: 'atMostOne',
  },
};
