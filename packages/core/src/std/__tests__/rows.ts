/** Every area's result rows, for the coverage check (coverage.nodb.test.ts). */
import { CAST_ROWS } from './casts.rows';
import { COLLECTION_ROWS } from './collections.rows';
import { DATETIME_ROWS } from './datetime.rows';
import type { Row } from './harness';
import { MATH_ROWS } from './math.rows';
import { OPERATOR_ROWS } from './operators.rows';
import { RANGE_ROWS } from './ranges.rows';
import { SET_ROWS } from './sets.rows';
import { STRING_ROWS } from './strings.rows';
import { SYS_ROWS } from './sys.rows';

export const ALL_ROWS: readonly Row[] = [
  ...OPERATOR_ROWS,
  ...CAST_ROWS,
  ...SET_ROWS,
  ...STRING_ROWS,
  ...COLLECTION_ROWS,
  ...MATH_ROWS,
  ...DATETIME_ROWS,
  ...RANGE_ROWS,
  ...SYS_ROWS,
];
