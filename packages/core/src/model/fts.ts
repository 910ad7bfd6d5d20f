/**
 * model/fts: the part of Gel's `fts` module a schema may use to declare a full-text index:
 * `index fts::index on (fts::with_options(.text, language := fts::Language.eng))`. Searching
 * (`fts::search`) is the query compiler's, later.
 *
 * Input: nothing. Output: the module's enums (member → what PostgreSQL calls it) and the names
 * of its index and function. One table, read by the builder (names, enum members) and the
 * storage layout (a GIN index over `to_tsvector(regconfig, text)`).
 */

/** `fts::Language` members → PostgreSQL text search configurations. */
export const FTS_LANGUAGES: Readonly<Record<string, string>> = {
  ara: 'arabic',
  hye: 'armenian',
  eus: 'basque',
  cat: 'catalan',
  dan: 'danish',
  nld: 'dutch',
  eng: 'english',
  fin: 'finnish',
  fra: 'french',
  deu: 'german',
  ell: 'greek',
  hin: 'hindi',
  hun: 'hungarian',
  ind: 'indonesian',
  gle: 'irish',
  ita: 'italian',
  lit: 'lithuanian',
  npi: 'nepali',
  nor: 'norwegian',
  por: 'portuguese',
  ron: 'romanian',
  rus: 'russian',
  srp: 'serbian',
  spa: 'spanish',
  swe: 'swedish',
  tam: 'tamil',
  tur: 'turkish',
  yid: 'yiddish',
};

/** `fts::Weight` members: PostgreSQL's tsvector weights. */
export const FTS_WEIGHTS = ['A', 'B', 'C', 'D'] as const;

/** The enums known without being declared (not listed in `Schema.scalarTypes`); their values
 * are text in SQL (no DOMAIN: std's enum cast checks the label). */
export const BUILTIN_ENUMS: Readonly<Record<string, readonly string[]>> = {
  'fts::Language': Object.keys(FTS_LANGUAGES),
  'fts::Weight': FTS_WEIGHTS,
};

export const FTS_INDEX = 'fts::index';
export const FTS_WITH_OPTIONS = 'fts::with_options';

/** Named index kinds a schema may declare (`index <kind> on (...)`), besides a plain index. */
export const INDEX_KINDS: ReadonlySet<string> = new Set([
  FTS_INDEX,
  'pg::btree',
  'pg::hash',
  'pg::gin',
  'pg::gist',
  'pg::spgist',
  'pg::brin',
]);
