import { CAST_ROWS } from './casts.rows';
import { describeRows } from './harness';

describeRows('std casts between scalars', CAST_ROWS);
