/**
 * quote: names and literals as EdgeQL text, by the printer's rule. A plain identifier stays bare,
 * anything else is quoted with backticks; strings and bytes escape control and invisible
 * characters. Text built from these parses back to the same names and values (the printer's
 * property test and ./quote.nodb.test.ts check it). REST builds its queries with `quoteIdent` and
 * `quoteName`.
 */
import type { BytesConstant, Constant, ObjectRef } from './ast';
import { isPlainIdentifier } from './tokens';

/** A name where Gel expects an identifier; quoted with backticks unless plain. */
export function ident(name: string): string {
  if (isPlainIdentifier(name)) return name;
  return `\`${name.replaceAll('`', '``')}\``;
}

/**
 * A pointer or type name as EdgeQL text, by the printer's own rule: a plain identifier stays as
 * it is, anything else (a keyword such as `select`, a name with other characters) is quoted with
 * backticks. Text built around it parses back to the same name.
 *
 * @example
 * quoteIdent('title'); // "title"
 * quoteIdent('limit'); // "`limit`"
 */
export function quoteIdent(name: string): string {
  return ident(name);
}

/**
 * A qualified name (`default::User`, `cal::local_date`) as EdgeQL text: the module path and the
 * name each quoted as `quoteIdent` does.
 */
export function quoteName(qualified: string): string {
  const at = qualified.lastIndexOf('::');
  if (at < 0) return objectRef({ module: null, name: qualified } as ObjectRef);
  return objectRef({
    module: qualified.slice(0, at),
    name: qualified.slice(at + 2),
  } as ObjectRef);
}

/** A pointer name after `.`, `.<`, `@`: tuple indexes and `__type__` stay bare. */
export function ptrName(name: string): string {
  if (/^\d+$/.test(name) || name === '__type__') return name;
  return ident(name);
}

export function objectRef(ref: ObjectRef): string {
  const name = ref.name.startsWith('__') && ref.name.endsWith('__') ? ref.name : ident(ref.name);
  if (ref.module === null) return name;
  return `${moduleName(ref.module)}::${name}`;
}

export function moduleName(module: string): string {
  return module
    .split('::')
    .map((part) => (part === '__std__' ? part : part.split('.').map(ident).join('.')))
    .join('::');
}

/** A string literal in single quotes; control and invisible characters escaped. */
export function str(value: string): string {
  let out = "'";
  let chunk = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    let escaped: string | undefined;
    if (c === 39) escaped = "\\'";
    else if (c === 92) escaped = '\\\\';
    else if (c === 10) escaped = '\\n';
    else if (c === 9) escaped = '\\t';
    else if (c === 13) escaped = '\\r';
    else if (c < 0x20 || c === 0x7f) escaped = `\\x${c.toString(16).padStart(2, '0')}`;
    else if (
      (c >= 0x80 && c <= 0x9f) ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    ) {
      escaped = `\\u${c.toString(16).padStart(4, '0')}`;
    }
    if (escaped !== undefined) {
      out += value.slice(chunk, i) + escaped;
      chunk = i + 1;
    }
  }
  return `${out}${value.slice(chunk)}'`;
}

export function bytes(node: BytesConstant): string {
  let out = "b'";
  for (const b of node.value) {
    if (b === 39) out += "\\'";
    else if (b === 92) out += '\\\\';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).padStart(2, '0')}`;
  }
  return `${out}'`;
}

export function constant(node: Constant): string {
  switch (node.scalar) {
    case 'str':
      return str(node.value);
    case 'bigint':
    case 'decimal':
      return `${node.value}n`;
    default:
      return node.value;
  }
}

export function parameter(name: string): string {
  return /^(\d+|[A-Za-z_][A-Za-z0-9_]*)$/.test(name)
    ? `$${name}`
    : `$\`${name.replaceAll('`', '``')}\``;
}
