/**
 * std/functions: the std, math and cal functions, as overload rows (std/define notation).
 *
 * Input: nothing. Output: `STD_FUNCTIONS`, overloads by qualified name (`std::len`).
 */
import { sql } from '../sql/ast';
import { call, def, table } from './define';
import type { Overload } from './model';

const rows: Overload[] = [
  def('std::len', 'str', 'int64', (a) => sql.func('char_length', [a.at(0)])),
];

export const STD_FUNCTIONS: ReadonlyMap<string, readonly Overload[]> = table(rows);
void call;
