import { describeRows } from './harness';
import { SYS_ROWS } from './sys.rows';

describeRows('sys functions', SYS_ROWS);
