import { describeRows } from './harness';
import { STRING_ROWS } from './strings.rows';

describeRows('std str and bytes functions', STRING_ROWS);
