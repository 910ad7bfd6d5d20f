// The schema and seed data of bench/rest, shared by every process: one plain table of eight
// scalar properties (text, int64, float64, bool, datetime, and optional ones left unset on some
// rows), 10,000 rows.
export const SDL = `
type Item {
  required name: str;
  required sku: str;
  required quantity: int64;
  required price: float64;
  required active: bool;
  required createdAt: datetime;
  note: str;
  rank: int32;
}
`;

/** The type measured, as the REST routes name it (`/api/Item`). */
export const TYPE = 'Item';

export const ROWS = 10_000;

/** Seeds ROWS rows in one statement; `note` is unset on odd rows, `rank` on two rows of three. */
export const SEED_SQL = `insert into "default"."Item" (name, sku, quantity, price, active, "createdAt", note, rank)
  select 'item ' || n, 'SKU-' || lpad(n::text, 6, '0'), n * 7, n / 4.0, n % 2 = 0,
    timestamptz '2024-01-01T00:00:00Z' + n * interval '37 minutes',
    case when n % 2 = 0 then 'note ' || n end, case when n % 3 = 0 then n % 1000 end
  from generate_series(1, $1::int) n`;
