/** Every area's result rows, for the coverage check (coverage.test.ts). */
import { CAST_ROWS } from './casts.rows';
import type { Row } from './harness';
import { OPERATOR_ROWS } from './operators.rows';

export const ALL_ROWS: readonly Row[] = [...OPERATOR_ROWS, ...CAST_ROWS];
