import { describeRows } from './harness';
import { OPERATOR_ROWS } from './operators.rows';

describeRows('std operators', OPERATOR_ROWS);
