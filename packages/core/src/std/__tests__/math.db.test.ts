import { describeRows } from './harness';
import { MATH_ROWS } from './math.rows';

describeRows('std math, bitwise and generators', MATH_ROWS);
