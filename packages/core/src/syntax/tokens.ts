/**
 * Token kinds and the keyword tables of EdgeQL and SDL (one vocabulary for both).
 *
 * Punctuation tokens use their own text as kind (`':='`, `'.<'`), so the parser reads
 * `token.kind === ':='`. Keywords are one kind, `'Keyword'`, with the lower-cased keyword in
 * `value`; keywords are case-insensitive as in Gel.
 *
 * The keyword classes follow Gel's `edb/edgeql-parser/src/keywords.rs`:
 * - reserved keywords can never be identifiers (quote them with backticks);
 * - partially reserved keywords (`union`, `except`, `intersect`) can be pointer names after `.`;
 * - unreserved keywords are identifiers wherever the grammar does not expect the keyword.
 */

export type PunctuationKind =
  | ':='
  | '-='
  | '+='
  | '->'
  | '??'
  | '::'
  | '.<'
  | '.?>'
  | '//'
  | '++'
  | '>='
  | '<='
  | '!='
  | '?='
  | '?!='
  | ','
  | '('
  | ')'
  | '['
  | ']'
  | '{'
  | '}'
  | '.'
  | ';'
  | ':'
  | '+'
  | '-'
  | '**'
  | '*'
  | '/'
  | '%'
  | '^'
  | '<'
  | '>'
  | '='
  | '&'
  | '|'
  | '@';

export type TokenKind =
  | PunctuationKind
  /** A plain identifier; `value` is the name as written. */
  | 'Ident'
  /** `` `name` ``; `value` is the name without quotes, doubled backticks undoubled. */
  | 'BacktickName'
  /** `value` is the lower-cased keyword. */
  | 'Keyword'
  /** `value` is the digits without underscores. */
  | 'IntConst'
  | 'FloatConst'
  /** `123n`: `value` is the number without the suffix and underscores. */
  | 'BigIntConst'
  /** `1.5n`: `value` is the number without the suffix and underscores. */
  | 'DecimalConst'
  /** `'...'`, `"..."`, `r'...'`, `$$...$$`: `value` is the decoded string. */
  | 'Str'
  /**
   * A string with interpolations, `"a \(x) b \(y) c"`, is three kinds of tokens around the
   * expressions' own: `"a \(` (StrInterpStart), `) b \(` (StrInterpCont), `) c"`
   * (StrInterpEnd); `value` is each one's decoded text (`a `, ` b `, ` c`).
   */
  | 'StrInterpStart'
  | 'StrInterpCont'
  | 'StrInterpEnd'
  /** `b'...'`: `bytes` holds the decoded bytes. */
  | 'Bytes'
  /** `$name`, `$0`, `` $`name` ``: `value` is the name. */
  | 'Parameter'
  | 'EOF';

/** A point in the source: 1-based line and column (UTF-16 code units), 0-based offset. */
export interface Position {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export interface Token {
  readonly kind: TokenKind;
  /** The source text of the token. */
  readonly text: string;
  /** See {@link TokenKind} for what each kind keeps here. */
  readonly value: string;
  readonly bytes?: Uint8Array;
  readonly start: Position;
  readonly end: Position;
}

export const UNRESERVED_KEYWORDS: ReadonlySet<string> = new Set([
  'abort',
  'abstract',
  'access',
  'after',
  'alias',
  'allow',
  'all',
  'annotation',
  'applied',
  'as',
  'asc',
  'assignment',
  'before',
  'blobal',
  'branch',
  'cardinality',
  'cast',
  'committed',
  'config',
  'conflict',
  'constraint',
  'cube',
  'current',
  'data',
  'database',
  'ddl',
  'declare',
  'default',
  'deferrable',
  'deferred',
  'delegated',
  'desc',
  'deny',
  'each',
  'empty',
  'expression',
  'extension',
  'final',
  'first',
  'force',
  'from',
  'function',
  'future',
  'implicit',
  'index',
  'infix',
  'inheritable',
  'instance',
  'into',
  'isolation',
  'json',
  'last',
  'link',
  'migration',
  'multi',
  'named',
  'object',
  'of',
  'only',
  'onto',
  'operator',
  'optionality',
  'order',
  'orphan',
  'overloaded',
  'owned',
  'package',
  'permission',
  'policy',
  'populate',
  'postfix',
  'prefix',
  'property',
  'proposed',
  'pseudo',
  'read',
  'reject',
  'release',
  'rename',
  'repeatable',
  'required',
  'reset',
  'restrict',
  'rewrite',
  'role',
  'roles',
  'rollup',
  'savepoint',
  'scalar',
  'schema',
  'sdl',
  'serializable',
  'session',
  'source',
  'superuser',
  'system',
  'target',
  'template',
  'ternary',
  'text',
  'then',
  'to',
  'transaction',
  'trigger',
  'type',
  'unless',
  'using',
  'verbose',
  'version',
  'view',
  'write',
]);

export const PARTIAL_RESERVED_KEYWORDS: ReadonlySet<string> = new Set([
  'except',
  'intersect',
  'union',
]);

export const RESERVED_KEYWORDS: ReadonlySet<string> = new Set([
  // future reserved
  'anyarray',
  'begin',
  'case',
  'check',
  'deallocate',
  'discard',
  'end',
  'explain',
  'fetch',
  'get',
  'global',
  'grant',
  'import',
  'listen',
  'load',
  'lock',
  'match',
  'move',
  'notify',
  'on',
  'over',
  'prepare',
  'partition',
  'raise',
  'refresh',
  'revoke',
  'single',
  'when',
  'window',
  'never',
  // current reserved
  '__source__',
  '__subject__',
  '__type__',
  '__std__',
  '__edgedbsys__',
  '__edgedbtpl__',
  '__new__',
  '__old__',
  '__specified__',
  '__default__',
  'administer',
  'alter',
  'analyze',
  'and',
  'anytuple',
  'anytype',
  'anyobject',
  'by',
  'commit',
  'configure',
  'create',
  'delete',
  'describe',
  'detached',
  'distinct',
  'do',
  'drop',
  'else',
  'exists',
  'extending',
  'false',
  'filter',
  'for',
  'group',
  'if',
  'ilike',
  'in',
  'insert',
  'introspect',
  'is',
  'like',
  'limit',
  'module',
  'not',
  'offset',
  'optional',
  'or',
  'rollback',
  'select',
  'set',
  'start',
  'true',
  'typeof',
  'update',
  'variadic',
  'with',
]);

/** The longest keyword; longer words skip the keyword lookup. */
const MAX_KEYWORD_LENGTH = 16;

/** The lower-cased keyword `word` spells, or undefined. */
export function keywordOf(word: string): string | undefined {
  if (word.length > MAX_KEYWORD_LENGTH) return undefined;
  const lower = word.toLowerCase();
  return RESERVED_KEYWORDS.has(lower) ||
    UNRESERVED_KEYWORDS.has(lower) ||
    PARTIAL_RESERVED_KEYWORDS.has(lower)
    ? lower
    : undefined;
}

export function isReservedKeyword(word: string): boolean {
  return RESERVED_KEYWORDS.has(word);
}

/** A name that is a plain identifier wherever Gel expects an `Identifier` (no quoting needed). */
export function isPlainIdentifier(name: string): boolean {
  if (!isIdentifierText(name)) return false;
  const lower = name.toLowerCase();
  return !RESERVED_KEYWORDS.has(lower) && !PARTIAL_RESERVED_KEYWORDS.has(lower);
}

/** `name` lexes as one identifier token (letters, digits, `_`, not starting with a digit). */
export function isIdentifierText(name: string): boolean {
  if (name.length === 0) return false;
  const first = name.charCodeAt(0);
  if (!isIdentStart(first, name, 0)) return false;
  for (let i = 1; i < name.length; i++) {
    if (!isIdentPart(name.charCodeAt(i), name, i)) return false;
  }
  return true;
}

const LETTER = /\p{L}/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** `_` or a letter; non-ASCII letters are tested with a Unicode class (rare, so cheap). */
export function isIdentStart(code: number, text: string, index: number): boolean {
  if (code === 95 /* _ */ || (code >= 97 && code <= 122) || (code >= 65 && code <= 90)) {
    return true;
  }
  if (!(code >= 128)) return false; // also NaN past the end
  const cp = text.codePointAt(index) ?? code;
  return LETTER.test(String.fromCodePoint(cp));
}

export function isIdentPart(code: number, text: string, index: number): boolean {
  if (
    code === 95 ||
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57)
  ) {
    return true;
  }
  if (!(code >= 128)) return false; // also NaN past the end
  if (code >= 0xdc00 && code <= 0xdfff) {
    // Low surrogate: belongs to the code point tested at the previous index.
    const prev = text.codePointAt(index - 1) ?? 0;
    return prev > 0xffff && LETTER_OR_DIGIT.test(String.fromCodePoint(prev));
  }
  const cp = text.codePointAt(index) ?? code;
  return LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
}

/** How a token is named in an error message: `'select'` as `keyword 'SELECT'`, like Gel. */
export function describeToken(token: Token): string {
  switch (token.kind) {
    case 'EOF':
      return 'end of input';
    case 'Keyword':
      return `keyword '${token.value.toUpperCase()}'`;
    default: {
      const text = token.text.length > 40 ? `${token.text.slice(0, 37)}...` : token.text;
      return `'${text}'`;
    }
  }
}
