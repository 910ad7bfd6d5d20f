import { describeRows } from './harness';
import { RANGE_ROWS } from './ranges.rows';

describeRows('std range functions', RANGE_ROWS);
