import { COLLECTION_ROWS } from './collections.rows';
import { describeRows } from './harness';

describeRows('std array and JSON functions', COLLECTION_ROWS);
