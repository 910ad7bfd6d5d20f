import { describeRows } from './harness';
import { SET_ROWS } from './sets.rows';

describeRows('std aggregates and set functions', SET_ROWS);
