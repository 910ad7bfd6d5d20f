import { DATETIME_ROWS } from './datetime.rows';
import { describeRows } from './harness';

describeRows('std datetime, duration and cal functions', DATETIME_ROWS);
