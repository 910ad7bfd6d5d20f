/**
 * lexer: EdgeQL and SDL source text → tokens, in one pass over char codes.
 *
 * Strings, bytes, parameters and numbers are validated and decoded here, so a bad escape is a
 * syntax error with the position of its backslash. Lines and columns are 1-based, columns count
 * UTF-16 code units (what editors and LSP report), and only `\n` starts a line.
 * Messages follow Gel's tokenizer (`edb/edgeql-parser/src/tokenizer.rs`).
 */
import { EdgeQLSyntaxError, type QueryErrorClass } from '../errors';
import {
  isIdentPart,
  isIdentStart,
  keywordOf,
  type Position,
  type Token,
  type TokenKind,
} from './tokens';

/** Tokenizes `source`; the last token is always `EOF`. Throws `errorClass` on a lexical error. */
export function tokenize(source: string, errorClass: QueryErrorClass = EdgeQLSyntaxError): Token[] {
  return new Lexer(source, errorClass).run();
}

const CH_TAB = 9;
const CH_LF = 10;
const CH_CR = 13;
const CH_SPACE = 32;
const CH_BANG = 33;
const CH_DQUOTE = 34;
const CH_HASH = 35;
const CH_DOLLAR = 36;
const CH_PERCENT = 37;
const CH_AMP = 38;
const CH_QUOTE = 39;
const CH_LPAREN = 40;
const CH_RPAREN = 41;
const CH_STAR = 42;
const CH_PLUS = 43;
const CH_COMMA = 44;
const CH_MINUS = 45;
const CH_DOT = 46;
const CH_SLASH = 47;
const CH_0 = 48;
const CH_9 = 57;
const CH_COLON = 58;
const CH_SEMI = 59;
const CH_LT = 60;
const CH_EQ = 61;
const CH_GT = 62;
const CH_QMARK = 63;
const CH_AT = 64;
const CH_LBRACKET = 91;
const CH_BACKSLASH = 92;
const CH_RBRACKET = 93;
const CH_CARET = 94;
const CH_UNDERSCORE = 95;
const CH_BACKTICK = 96;
const CH_LOWER_E = 101;
const CH_LBRACE = 123;
const CH_PIPE = 124;
const CH_RBRACE = 125;
const CH_BOM = 0xfeff;

function isDigit(code: number): boolean {
  return code >= CH_0 && code <= CH_9;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  if (code >= 65 && code <= 70) return code - 55;
  return -1;
}

/** Characters Gel refuses in source text: NUL and the bidirectional overrides. */
function isProhibited(code: number): boolean {
  return code === 0 || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

function hex4(code: number): string {
  return code.toString(16).padStart(4, '0');
}

class Lexer {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  /** The previous token was `.`: digits are a tuple index, never a float. */
  private afterDot = false;
  private readonly tokens: Token[] = [];
  /** Open parentheses, to tell the `)` that resumes an interpolated string. */
  private parens = 0;
  /** Open string interpolations: the string's quote and `parens` when it opened (Gel's stack). */
  private readonly interpolations: { quote: number; parens: number }[] = [];

  constructor(
    private readonly src: string,
    private readonly errorClass: QueryErrorClass,
  ) {}

  run(): Token[] {
    const n = this.src.length;
    for (;;) {
      this.skipTrivia();
      if (this.i >= n) break;
      this.scanToken();
    }
    const end = this.pos();
    this.tokens.push({ kind: 'EOF', text: '', value: '', start: end, end });
    return this.tokens;
  }

  private pos(at = this.i): Position {
    return { line: this.line, column: at - this.lineStart + 1, offset: at };
  }

  private fail(message: string, at: Position, hint?: string): never {
    throw new this.errorClass(message, {
      position: { line: at.line, column: at.column },
      ...(hint === undefined ? {} : { hint }),
    });
  }

  private code(at: number): number {
    // NaN past the end compares false with everything, like a sentinel.
    return this.src.charCodeAt(at);
  }

  private newline(at: number): void {
    this.line++;
    this.lineStart = at + 1;
  }

  private skipTrivia(): void {
    const src = this.src;
    const n = src.length;
    while (this.i < n) {
      const c = src.charCodeAt(this.i);
      if (c === CH_SPACE || c === CH_TAB || c === CH_CR || c === CH_BOM) {
        this.i++;
      } else if (c === CH_LF) {
        this.newline(this.i);
        this.i++;
      } else if (c === CH_HASH) {
        const eol = src.indexOf('\n', this.i);
        const end = eol === -1 ? n : eol;
        // Comments obey the same rule as strings: no NUL (PostgreSQL cannot store the text) and
        // no bidirectional overrides (they make code read differently than it runs).
        for (let j = this.i + 1; j < end; j++) {
          const cc = src.charCodeAt(j);
          if (isProhibited(cc))
            this.fail(`character U+${hex4(cc).toUpperCase()} is not allowed`, this.pos(j));
        }
        this.i = end;
      } else {
        return;
      }
    }
  }

  private push(
    kind: TokenKind,
    startIdx: number,
    start: Position,
    value?: string,
    bytes?: Uint8Array,
  ): void {
    const text = this.src.slice(startIdx, this.i);
    const token: Token =
      bytes === undefined
        ? { kind, text, value: value ?? text, start, end: this.pos() }
        : { kind, text, value: value ?? text, bytes, start, end: this.pos() };
    this.tokens.push(token);
    this.afterDot = kind === '.';
  }

  private punct(kind: TokenKind, length: number, startIdx: number, start: Position): void {
    this.i += length;
    this.push(kind, startIdx, start);
  }

  private scanToken(): void {
    const startIdx = this.i;
    const start = this.pos();
    const c = this.code(startIdx);
    const c1 = this.code(startIdx + 1);
    switch (c) {
      case CH_COLON:
        if (c1 === CH_EQ) return this.punct(':=', 2, startIdx, start);
        if (c1 === CH_COLON) return this.punct('::', 2, startIdx, start);
        return this.punct(':', 1, startIdx, start);
      case CH_MINUS:
        if (c1 === CH_GT) return this.punct('->', 2, startIdx, start);
        if (c1 === CH_EQ) return this.punct('-=', 2, startIdx, start);
        return this.punct('-', 1, startIdx, start);
      case CH_GT:
        if (c1 === CH_EQ) return this.punct('>=', 2, startIdx, start);
        return this.punct('>', 1, startIdx, start);
      case CH_LT:
        if (c1 === CH_EQ) return this.punct('<=', 2, startIdx, start);
        return this.punct('<', 1, startIdx, start);
      case CH_PLUS:
        if (c1 === CH_EQ) return this.punct('+=', 2, startIdx, start);
        if (c1 === CH_PLUS) return this.punct('++', 2, startIdx, start);
        return this.punct('+', 1, startIdx, start);
      case CH_SLASH:
        if (c1 === CH_SLASH) return this.punct('//', 2, startIdx, start);
        return this.punct('/', 1, startIdx, start);
      case CH_DOT:
        if (c1 === CH_LT) return this.punct('.<', 2, startIdx, start);
        if (c1 === CH_QMARK) {
          if (this.code(startIdx + 2) === CH_GT) return this.punct('.?>', 3, startIdx, start);
          return this.fail('`.?` is not an operator, did you mean `.?>` ?', start);
        }
        return this.punct('.', 1, startIdx, start);
      case CH_QMARK:
        if (c1 === CH_QMARK) return this.punct('??', 2, startIdx, start);
        if (c1 === CH_EQ) return this.punct('?=', 2, startIdx, start);
        if (c1 === CH_BANG) {
          if (this.code(startIdx + 2) === CH_EQ) return this.punct('?!=', 3, startIdx, start);
          return this.fail('`?!` is not an operator, did you mean `?!=` ?', start);
        }
        return this.fail('Bare `?` is not an operator, did you mean `?=` or `??` ?', start);
      case CH_BANG:
        if (c1 === CH_EQ) return this.punct('!=', 2, startIdx, start);
        return this.fail(
          'Bare `!` is not an operator, did you mean `!=`?',
          start,
          "negation is 'not'",
        );
      case CH_STAR:
        if (c1 === CH_STAR) return this.punct('**', 2, startIdx, start);
        return this.punct('*', 1, startIdx, start);
      case CH_EQ:
        return this.punct('=', 1, startIdx, start);
      case CH_COMMA:
        return this.punct(',', 1, startIdx, start);
      case CH_LPAREN:
        this.parens++;
        return this.punct('(', 1, startIdx, start);
      case CH_RPAREN: {
        const open = this.interpolations[this.interpolations.length - 1];
        if (open && open.parens === this.parens) {
          return this.scanString(startIdx, start, startIdx, false, false, open.quote);
        }
        if (this.parens > 0) this.parens--;
        return this.punct(')', 1, startIdx, start);
      }
      case CH_LBRACKET:
        return this.punct('[', 1, startIdx, start);
      case CH_RBRACKET:
        return this.punct(']', 1, startIdx, start);
      case CH_LBRACE:
        return this.punct('{', 1, startIdx, start);
      case CH_RBRACE:
        return this.punct('}', 1, startIdx, start);
      case CH_SEMI:
        return this.punct(';', 1, startIdx, start);
      case CH_PERCENT:
        return this.punct('%', 1, startIdx, start);
      case CH_CARET:
        return this.punct('^', 1, startIdx, start);
      case CH_AMP:
        return this.punct('&', 1, startIdx, start);
      case CH_PIPE:
        return this.punct('|', 1, startIdx, start);
      case CH_AT:
        return this.punct('@', 1, startIdx, start);
      case CH_QUOTE:
      case CH_DQUOTE:
        return this.scanString(startIdx, start, startIdx, false, false);
      case CH_BACKTICK:
        return this.scanBacktickName(startIdx, start);
      case CH_DOLLAR:
        return this.scanDollar(startIdx, start);
      default:
        break;
    }
    if (isDigit(c)) {
      if (this.afterDot) return this.scanTupleIndex(startIdx, start);
      return this.scanNumber(startIdx, start);
    }
    if (isIdentStart(c, this.src, startIdx)) return this.scanWord(startIdx, start);
    const cp = this.src.codePointAt(startIdx) ?? c;
    return this.fail(`unexpected character '${String.fromCodePoint(cp)}'`, start);
  }

  // --- names -----------------------------------------------------------------------------

  private scanWord(startIdx: number, start: Position): void {
    const src = this.src;
    let j = startIdx + 1;
    while (j < src.length && isIdentPart(src.charCodeAt(j), src, j)) j++;
    const next = src.charCodeAt(j);
    const word = src.slice(startIdx, j);
    if (next === CH_QUOTE || next === CH_DQUOTE) {
      switch (word) {
        case 'r':
          return this.scanString(startIdx, start, j, true, false);
        case 'b':
          return this.scanString(startIdx, start, j, false, true);
        case 'rb':
        case 'br':
          return this.scanString(startIdx, start, j, true, true);
        default:
          return this.fail(
            `prefix "${word}" is not allowed for strings, allowed: \`b\`, \`r\``,
            start,
          );
      }
    }
    if (next === CH_BACKTICK) {
      return this.fail(
        `prefix "${word}" is not allowed for field names, perhaps missing comma or dot?`,
        start,
      );
    }
    this.i = j;
    const keyword = keywordOf(word);
    if (keyword !== undefined) return this.push('Keyword', startIdx, start, keyword);
    if (word.length > 4 && word.startsWith('__') && word.endsWith('__')) {
      return this.fail('identifiers surrounded by double underscores are forbidden', start);
    }
    this.push('Ident', startIdx, start, word);
  }

  private scanBacktickName(startIdx: number, start: Position): void {
    const value = this.scanBacktickBody(startIdx + 1, start, 'name');
    if (value.length === 0) return this.fail('backtick quotes cannot be empty', start);
    if (value.startsWith('@')) {
      return this.fail('backtick-quoted name cannot start with char `@`', start);
    }
    if (value.startsWith('$')) {
      return this.fail('backtick-quoted name cannot start with char `$`', start);
    }
    if (value.includes('::')) return this.fail('backtick-quoted name cannot contain `::`', start);
    if (value.startsWith('__') && value.endsWith('__')) {
      return this.fail(
        'backtick-quoted names surrounded by double underscores are forbidden',
        start,
      );
    }
    this.push('BacktickName', startIdx, start, value);
  }

  /** Reads from after the opening backtick to after the closing one; returns the name. */
  private scanBacktickBody(from: number, start: Position, what: 'name' | 'argument'): string {
    const src = this.src;
    let j = from;
    let value = '';
    let chunk = from;
    for (;;) {
      if (j >= src.length) return this.fail(`unterminated backtick ${what}`, start);
      const c = src.charCodeAt(j);
      if (c === CH_BACKTICK) {
        if (src.charCodeAt(j + 1) === CH_BACKTICK) {
          value += src.slice(chunk, j + 1);
          j += 2;
          chunk = j;
          continue;
        }
        value += src.slice(chunk, j);
        this.i = j + 1;
        return value;
      }
      if (c === CH_LF) this.newline(j);
      else if (isProhibited(c)) {
        return this.fail(`character U+${hex4(c).toUpperCase()} is not allowed`, this.pos(j));
      }
      j++;
    }
  }

  // --- parameters and dollar-quoted strings --------------------------------------------------

  private scanDollar(startIdx: number, start: Position): void {
    const src = this.src;
    const c1 = src.charCodeAt(startIdx + 1);
    if (c1 === CH_DOLLAR) return this.scanDollarQuoted(startIdx, start, '$$');
    if (c1 === CH_BACKTICK) {
      const name = this.scanBacktickBody(startIdx + 2, start, 'argument');
      if (name.length === 0) return this.fail('backtick-quoted argument cannot be empty', start);
      if (name.startsWith('@')) {
        return this.fail('backtick-quoted argument cannot start with char `@`', start);
      }
      if (name.includes('::')) {
        return this.fail('backtick-quoted argument cannot contain `::`', start);
      }
      if (name.startsWith('__') && name.endsWith('__')) {
        return this.fail(
          'backtick-quoted arguments surrounded by double underscores are forbidden',
          start,
        );
      }
      return this.push('Parameter', startIdx, start, name);
    }
    if (!(isDigit(c1) || isIdentStart(c1, src, startIdx + 1))) {
      return this.fail('bare $ is not allowed', start);
    }
    let j = startIdx + 1;
    let hasLetter = false;
    while (j < src.length) {
      const c = src.charCodeAt(j);
      if (isDigit(c)) j++;
      else if (isIdentPart(c, src, j)) {
        hasLetter = true;
        j++;
      } else break;
    }
    if (src.charCodeAt(j) === CH_DOLLAR) {
      const marker = src.slice(startIdx, j + 1);
      if (isDigit(c1)) return this.fail('dollar quote must not start with a digit', start);
      if (!/^[\x00-\x7f]*$/.test(marker)) {
        return this.fail('dollar quote supports only ascii chars', start);
      }
      return this.scanDollarQuoted(startIdx, start, marker);
    }
    const name = src.slice(startIdx + 1, j);
    if (hasLetter && isDigit(c1)) {
      return this.fail(
        `the "$${name}" is not a valid argument, either name starting with letter or only digits are expected`,
        start,
      );
    }
    this.i = j;
    this.push('Parameter', startIdx, start, name);
  }

  private scanDollarQuoted(startIdx: number, start: Position, marker: string): void {
    const src = this.src;
    const bodyStart = startIdx + marker.length;
    const close = src.indexOf(marker, bodyStart);
    if (close === -1) {
      return this.fail(`unterminated string started with ${marker}`, start);
    }
    for (let j = bodyStart; j < close; j++) {
      const c = src.charCodeAt(j);
      if (c === CH_LF) this.newline(j);
      else if (isProhibited(c)) {
        return this.fail(`character U+${hex4(c).toUpperCase()} is not allowed`, this.pos(j));
      }
    }
    this.i = close + marker.length;
    this.push('Str', startIdx, start, src.slice(bodyStart, close));
  }

  // --- strings and bytes -------------------------------------------------------------------

  /**
   * `quoteIdx` is the opening quote (after a `r`/`b`/`rb` prefix, if any). With `resumed` (the
   * quote of an open interpolation) `quoteIdx` is the `)` that ends an interpolated expression
   * and the string goes on after it. In a plain string (not raw, not bytes) `\(` ends the text
   * before an interpolated expression (Gel 6).
   */
  private scanString(
    startIdx: number,
    start: Position,
    quoteIdx: number,
    raw: boolean,
    binary: boolean,
    resumed?: number,
  ): void {
    const src = this.src;
    const quote = resumed ?? src.charCodeAt(quoteIdx);
    const bytes: number[] | null = binary ? [] : null;
    let value = '';
    let chunk = quoteIdx + 1;
    let j = quoteIdx + 1;
    for (;;) {
      if (j >= src.length) {
        const q = String.fromCharCode(quote);
        return this.fail(
          resumed === undefined
            ? `unterminated string, quoted by \`${q}\``
            : `unterminated string with interpolations, quoted by \`${q}\``,
          start,
        );
      }
      const c = src.charCodeAt(j);
      if (c === quote) break;
      if (c === CH_BACKSLASH && !raw && !binary && src.charCodeAt(j + 1) === CH_LPAREN) {
        value += src.slice(chunk, j);
        this.i = j + 2;
        if (resumed === undefined) this.interpolations.push({ quote, parens: this.parens });
        this.push(
          resumed === undefined ? 'StrInterpStart' : 'StrInterpCont',
          startIdx,
          start,
          value,
        );
        return;
      }
      if (c === CH_BACKSLASH && !raw) {
        value += src.slice(chunk, j);
        j = this.scanEscape(j, start, quote, binary, (s) => (value += s), bytes);
        chunk = j;
        continue;
      }
      if (c === CH_LF) this.newline(j);
      if (binary) {
        if (c > 0x7f) {
          const cp = src.codePointAt(j) ?? c;
          return this.fail(
            `invalid bytes literal: character '${String.fromCodePoint(cp)}' is unexpected, only ascii chars are allowed in bytes literals`,
            this.pos(j),
          );
        }
        bytes?.push(c);
      } else if (isProhibited(c)) {
        const name = hex4(c);
        return this.fail(
          raw
            ? `character U+${name.toUpperCase()} is not allowed`
            : `character U+${name.toUpperCase()} is not allowed, use escaped form \\u${name}`,
          this.pos(j),
        );
      }
      j++;
    }
    value += src.slice(chunk, j);
    this.i = j + 1;
    if (binary) {
      this.push('Bytes', startIdx, start, value, Uint8Array.from(bytes ?? []));
    } else if (resumed !== undefined) {
      this.interpolations.pop();
      this.push('StrInterpEnd', startIdx, start, value);
    } else {
      this.push('Str', startIdx, start, value);
    }
  }

  /**
   * Decodes the escape whose backslash is at `at`; appends text (strings) or bytes (bytes
   * literals) and returns the index after it.
   */
  private scanEscape(
    at: number,
    start: Position,
    quote: number,
    binary: boolean,
    emit: (s: string) => void,
    bytes: number[] | null,
  ): number {
    const src = this.src;
    const what = binary ? 'bytes' : 'string';
    const c = src.charCodeAt(at + 1);
    const out = (text: string, byte: number): number => {
      if (bytes) bytes.push(byte);
      else emit(text);
      return at + 2;
    };
    if (Number.isNaN(c)) {
      return this.fail(`unterminated string, quoted by \`${String.fromCharCode(quote)}\``, start);
    }
    switch (c) {
      case CH_DQUOTE:
      case CH_QUOTE:
      case CH_BACKSLASH:
      case CH_SLASH:
        return out(String.fromCharCode(c), c);
      case 98: // b
        return out('\b', 8);
      case 102: // f
        return out('\f', 12);
      case 110: // n
        return out('\n', 10);
      case 114: // r
        return out('\r', 13);
      case 116: // t
        return out('\t', 9);
      case 120: {
        // x
        const h1 = hexValue(src.charCodeAt(at + 2));
        const h2 = hexValue(src.charCodeAt(at + 3));
        const shown = src.slice(at + 2, at + 4);
        if (h1 < 0 || h2 < 0) {
          return this.fail(
            `invalid ${what} literal: invalid escape sequence '\\x${printable(shown)}'`,
            this.pos(at),
          );
        }
        const code = h1 * 16 + h2;
        if (bytes) {
          bytes.push(code);
          return at + 4;
        }
        if (code === 0 || code > 0x7f) {
          return this.fail(
            `invalid string literal: invalid escape sequence '\\x${shown}' (only non-null ascii allowed)`,
            this.pos(at),
          );
        }
        emit(String.fromCharCode(code));
        return at + 4;
      }
      case 117: // u
      case 85: {
        // U
        if (bytes) break;
        const len = c === 117 ? 4 : 8;
        const letter = String.fromCharCode(c);
        let code = 0;
        let ok = true;
        for (let k = 0; k < len; k++) {
          const h = hexValue(src.charCodeAt(at + 2 + k));
          if (h < 0) {
            ok = false;
            break;
          }
          code = code * 16 + h;
        }
        if (!ok || code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
          const shown = src.slice(at + 2, Math.min(at + 2 + len, src.length));
          return this.fail(
            `invalid string literal: invalid escape sequence '\\${letter}${printable(shown)}'`,
            this.pos(at),
          );
        }
        emit(String.fromCodePoint(code));
        return at + 2 + len;
      }
      case CH_LF:
      case CH_CR: {
        // Line continuation: the newline and the whitespace after it vanish.
        let j = at + 1;
        for (;;) {
          const w = src.charCodeAt(j);
          if (w === CH_LF) {
            this.newline(j);
            j++;
          } else if (w === CH_SPACE || w === CH_TAB || w === CH_CR || w === 11 || w === 12) {
            j++;
          } else {
            return j;
          }
        }
      }
      default:
        break;
    }
    const cp = src.codePointAt(at + 1) ?? c;
    return this.fail(
      `invalid ${what} literal: invalid escape sequence '\\${printable(String.fromCodePoint(cp))}'`,
      this.pos(at),
    );
  }

  // --- numbers -------------------------------------------------------------------------

  private scanTupleIndex(startIdx: number, start: Position): void {
    const src = this.src;
    let j = startIdx;
    while (isDigit(src.charCodeAt(j))) j++;
    const next = src.charCodeAt(j);
    if (isIdentStart(next, src, j)) {
      return this.fail(
        `unexpected char '${src[j]}', only integers are allowed after dot (for tuple access)`,
        start,
      );
    }
    if (src.charCodeAt(startIdx) === CH_0 && j - startIdx > 1) {
      return this.fail('leading zeros are not allowed in numbers', start);
    }
    this.i = j;
    this.push('IntConst', startIdx, start);
  }

  private scanNumber(startIdx: number, start: Position): void {
    const src = this.src;
    let j = startIdx;
    const digits = (): void => {
      for (;;) {
        const c = src.charCodeAt(j);
        if (isDigit(c) || c === CH_UNDERSCORE) j++;
        else return;
      }
    };
    digits();
    if (src.charCodeAt(startIdx) === CH_0 && j - startIdx > 1) {
      return this.fail('unexpected leading zeros are not allowed in numbers', start);
    }
    let isFloat = false;
    let decimal = false;
    if (src.charCodeAt(j) === CH_DOT) {
      const after = src.charCodeAt(j + 1);
      if (!isDigit(after)) {
        if (after === CH_UNDERSCORE)
          return this.fail('expected digit after dot, found underscore', start);
        if (after === CH_LOWER_E)
          return this.fail('expected digit after dot, found exponent', start);
        if (after === CH_DOT) return this.fail('unexpected extra decimal dot in number', start);
        if (isIdentStart(after, src, j + 1)) {
          return this.fail('expected digit after dot, found suffix', start);
        }
        return this.fail('expected digit after dot, found end of decimal', start);
      }
      j++;
      digits();
      isFloat = true;
      decimal = true;
      if (src.charCodeAt(j) === CH_DOT) {
        return this.fail('unexpected extra decimal dot in number', start);
      }
    }
    if (src.charCodeAt(j) === CH_LOWER_E) {
      let k = j + 1;
      const sign = src.charCodeAt(k);
      if (sign === CH_PLUS || sign === CH_MINUS) {
        if (sign === CH_MINUS) decimal = true;
        k++;
      }
      const first = src.charCodeAt(k);
      if (!isDigit(first)) {
        if (first === CH_DOT) return this.fail('unexpected extra decimal dot in number', start);
        return this.fail(
          'unexpected optional `+` or `-` followed by digits must follow `e` in float const',
          start,
        );
      }
      j = k;
      digits();
      isFloat = true;
      if (src.charCodeAt(j) === CH_DOT) {
        return this.fail('unexpected extra decimal dot in number', start);
      }
    }
    const numberEnd = j;
    let kind: TokenKind = isFloat ? 'FloatConst' : 'IntConst';
    if (isIdentStart(src.charCodeAt(j), src, j)) {
      while (j < src.length && isIdentPart(src.charCodeAt(j), src, j)) j++;
      const suffix = src.slice(numberEnd, j);
      if (suffix === 'n') {
        kind = decimal ? 'DecimalConst' : 'BigIntConst';
      } else {
        const shown = suffix.length > 8 ? `${suffix.slice(0, 8)}...` : suffix;
        const number = numberEnd - startIdx < 20 ? src.slice(startIdx, numberEnd) : '123';
        if (suffix.startsWith('O')) {
          return this.fail(
            `suffix "${shown}" is invalid for numbers, perhaps mixed up letter \`O\` with zero \`0\`?`,
            start,
          );
        }
        return this.fail(
          `suffix "${shown}" is invalid for numbers, perhaps you wanted \`${number}n\` (${decimal ? 'decimal' : 'bigint'})?`,
          start,
        );
      }
    }
    this.i = j;
    let value = src.slice(startIdx, numberEnd);
    if (value.includes('_')) value = value.replaceAll('_', '');
    if (kind === 'FloatConst' && !floatInRange(value)) {
      return this.fail('number is out of range for std::float64', start);
    }
    this.push(kind, startIdx, start, value);
  }
}

/**
 * Whether a float literal is a finite float64 that does not underflow to zero (Gel refuses
 * both as a syntax error; `1e999n`, a decimal, is not a float literal).
 */
function floatInRange(text: string): boolean {
  const n = Number(text);
  if (!Number.isFinite(n)) return false;
  if (n !== 0) return true;
  const mantissa = text.split(/[eE]/)[0] ?? '';
  return /^[0.]*$/.test(mantissa);
}

/** Shows control characters in a message as escapes. */
function printable(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    out += code < 32 || code === 127 ? `\\u{${code.toString(16)}}` : ch;
  }
  return out;
}
