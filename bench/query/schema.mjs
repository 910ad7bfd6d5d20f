// The schema, seed data and the three queries of bench/query, shared by every process.
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
`;

export const AUTHORS = 100;
export const POSTS_PER_AUTHOR = 5;

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
};
