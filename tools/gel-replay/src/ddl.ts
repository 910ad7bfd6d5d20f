/**
 * gel-replay/ddl: Gel's DDL in a setup or a test body, applied to the class's SDL.
 *
 * svc takes schemas as SDL only, and many Gel tests start with `create type Foo { ... }` or
 * `alter type User { create link ... }`. To replay them, the runner turns each DDL statement into
 * the SDL document it leaves behind and migrates to that document (in the test's transaction).
 *
 * Input: the current SDL (module blocks), one DDL statement and the session's default module.
 * Output: the new SDL, or a `DdlNotTranslated` naming the form. Covered: a migration script
 * (`start migration to { SDL }` is the whole new schema; `populate`/`commit migration`); `create
 * module`; `create` of a type, abstract type, scalar type, function, alias, global, abstract
 * constraint/link/property/annotation (their bodies: `create X` → `X`, `set name := v` → `name :=
 * v`, `alter property p {...}` in a new type → `overloaded property p {...}`; so `create access
 * policy ...` → `access policy ...`); `alter type|global X { ... }` and `alter type T <one
 * subcommand>` with `create ...`, `alter property|link p ...` (nested), `set default := e`,
 * `reset default`, `set required|optional`, `set|reset abstract`, `drop constraint ...` and `drop
 * property|link p` (members found as written); `alter function f(params) using (...)` (the
 * overload declared with those parameters); `drop type|alias|function|global|scalar type`;
 * `create|drop future warn_old_scoping|simple_scoping` (nothing to change: svc's scoping is
 * simple scoping's, the other only warns). Anything else (other pointer changes, other futures,
 * access policies the schema builder refuses, `configure`) is not translated and the step fails,
 * counted.
 */

import { splitStatements, statementHead, stringEnd, WITH_MODULE } from './script';

export { isDdl } from './script';

export class DdlNotTranslated extends Error {
  readonly type = 'DdlNotTranslated';
}

/** `text` with every match of `pattern` (global) outside string literals and comments
 * replaced by `replace(match, ...groups)`. */
function replaceOutsideStrings(
  text: string,
  pattern: RegExp,
  replace: (match: string, ...groups: string[]) => string,
): string {
  let out = '';
  let start = 0;
  const code = (end: number) => {
    out += text.slice(start, end).replace(pattern, replace as (m: string) => string);
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === "'" || ch === '"' || ch === '`' || ch === '#') {
      code(i);
      let j = i + 1;
      if (ch === '#') {
        const end = text.indexOf('\n', i);
        j = end < 0 ? text.length : end;
      } else {
        while (j < text.length && text[j] !== ch) j += text[j] === '\\' && ch !== '`' ? 2 : 1;
        j++;
      }
      out += text.slice(i, j);
      start = i = j;
      continue;
    }
    i++;
  }
  code(text.length);
  return out;
}

/** A DDL body (or declaration) as SDL. */
function bodyToSdl(ddl: string): string {
  let sdl = replaceOutsideStrings(
    ddl,
    /\balter\s+(property|link)\b/gi,
    (_, kind) => `overloaded ${kind}`,
  );
  sdl = replaceOutsideStrings(sdl, /\bcreate\s+/gi, () => '');
  sdl = replaceOutsideStrings(sdl, /\bset\s+([A-Za-z_]\w*)\s*:=/gi, (_, name) => `${name} :=`);
  if (/\b(drop|reset)\s+[A-Za-z_]/i.test(sdl.replace(/'[^']*'|"[^"]*"/g, ''))) {
    throw new DdlNotTranslated(`a drop/reset inside a create: ${firstLine(ddl)}`);
  }
  return sdl.trim().replace(/;?$/, ';');
}

function firstLine(text: string): string {
  return (text.split('\n')[0] as string).slice(0, 100);
}

/** `mod::Name` → [mod, Name]; a bare name is in `module` (`default` unless the session's
 * `set module` says otherwise). */
function splitName(name: string, module = 'default'): [string, string] {
  const at = name.lastIndexOf('::');
  return at < 0 ? [module, name] : [name.slice(0, at), name.slice(at + 2)];
}

/** The index just past the declaration starting at `start`: its `;`, or its block's `}` (and
 * a `;` right after it). */
function declarationEnd(sdl: string, start: number): { end: number; blockClose: number | null } {
  let depth = 0;
  for (let i = start; i < sdl.length; i++) {
    const ch = sdl[i] as string;
    if (ch === "'" || ch === '"') {
      i = stringEnd(sdl, i) - 1;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === '}') {
      depth--;
      if (depth === 0) {
        const after = /^\s*;/.exec(sdl.slice(i + 1));
        return { end: i + 1 + (after ? after[0].length : 0), blockClose: i };
      }
      if (depth < 0) return { end: i, blockClose: null };
    } else if (ch === ';' && depth === 0) return { end: i + 1, blockClose: null };
  }
  return { end: sdl.length, blockClose: null };
}

const KINDS: Record<string, RegExp> = {
  type: /(?:abstract\s+)?type/,
  'scalar type': /(?:abstract\s+)?scalar\s+type/,
  alias: /alias/,
  function: /function/,
  global: /(?:required\s+|optional\s+)?(?:multi\s+|single\s+)?global/,
};

/** Where `kind name` is declared in `sdl` (the first one), or null. */
function findDeclaration(
  sdl: string,
  kind: string,
  name: string,
  module = 'default',
): number | null {
  const [inModule, bare] = splitName(name, module);
  const head = KINDS[kind] ?? new RegExp(kind);
  const escaped = bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Keywords in any case (DDL and SDL are case-insensitive); the name as written.
  const pattern = new RegExp(`(^|[\\s;{}])(${head.source}\\s+${escaped})(?![\\w:])`, 'gi');
  // The declaration inside the name's module block, when the SDL has one (two modules may
  // declare one bare name); else the first anywhere.
  const moduleName = inModule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const block of sdl.matchAll(
    new RegExp(`(^|[\\s;{}])module\\s+${moduleName}\\s*\\{`, 'gi'),
  )) {
    const open = (block.index as number) + block[0].length - 1;
    const close = groupEnd(sdl, open);
    pattern.lastIndex = open;
    const match = pattern.exec(sdl);
    if (match && match.index < close) return match.index + (match[1] as string).length;
  }
  pattern.lastIndex = 0;
  const match = pattern.exec(sdl);
  return match ? match.index + (match[1] as string).length : null;
}

/** The subcommands of an `alter`: `{ a; b; }`, or one subcommand written without braces. */
function subcommands(rest: string): string[] {
  const text = rest.trim().replace(/;$/, '').trim();
  if (!text.startsWith('{')) return [text];
  return splitStatements(text.slice(1, text.lastIndexOf('}')));
}

/** The `{` opening the block of the declaration at `at`, or null when it has none. */
function blockOpen(sdl: string, at: number): number | null {
  let depth = 0;
  for (let i = at; i < sdl.length; i++) {
    const ch = sdl[i] as string;
    if (ch === "'" || ch === '"') {
      i = stringEnd(sdl, i) - 1;
      continue;
    }
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (depth === 0 && ch === '{') return i;
    else if (depth === 0 && ch === ';') return null;
  }
  return null;
}

/** The declarations directly inside the block of the declaration at `at`, as [start, end). */
function members(sdl: string, at: number): Array<[number, number]> {
  const open = blockOpen(sdl, at);
  if (open === null) return [];
  const close = declarationEnd(sdl, at).blockClose ?? sdl.length;
  const out: Array<[number, number]> = [];
  let pos = open + 1;
  while (pos < close) {
    const skip = /^(\s+|#[^\n]*)+/.exec(sdl.slice(pos, close));
    if (skip) pos += skip[0].length;
    if (pos >= close) break;
    const { end } = declarationEnd(sdl, pos);
    out.push([pos, Math.min(end, close)]);
    pos = Math.min(end, close);
  }
  return out;
}

/** The SDL with `text` added as the last member of the declaration at `at`. */
function addMember(sdl: string, at: number, text: string): string {
  const { end, blockClose } = declarationEnd(sdl, at);
  if (blockClose !== null && blockOpen(sdl, at) !== null)
    return `${sdl.slice(0, blockClose)}\n${text}\n${sdl.slice(blockClose)}`;
  // `property p -> T;` or `type X extending Y;`: the `;` becomes a block.
  return `${sdl.slice(0, end - 1)} {\n${text}\n};${sdl.slice(end)}`;
}

/** The SDL without the `default := ...` member of the declaration at `at` (unchanged when it
 * has none). */
function withoutDefault(sdl: string, at: number): string {
  const member = members(sdl, at).find(([start]) => /^default\s*:=/i.test(sdl.slice(start)));
  return member ? sdl.slice(0, member[0]) + sdl.slice(member[1]) : sdl;
}

const squash = (text: string) =>
  text.replace(/\s+/g, ' ').replace(/;\s*$/, '').trim().toLowerCase();

/**
 * The SDL after `alter` subcommands on the declaration at `at` (a type, or a pointer in one):
 * `create ...` adds a member, `alter property|link p ...` recurses into the pointer,
 * `set default := e` sets the pointer's default, `drop constraint ...` / `drop property|link p`
 * removes the member written the same way. Anything else is not translated.
 */
function alterDeclaration(sdl: string, at: number, subs: readonly string[]): string {
  let out = sdl;
  for (const sub of subs) {
    if (/^create\s/i.test(sub)) {
      out = addMember(out, at, bodyToSdl(sub));
      continue;
    }
    let m = /^alter\s+(property|link)\s+([A-Za-z_]\w*)\s*([\s\S]*)$/i.exec(sub);
    if (m) {
      const name = (m[2] as string).toLowerCase();
      const member = members(out, at).find(
        ([start, end]) => pointerName(out.slice(start, end)) === name,
      );
      if (!member) throw new DdlNotTranslated(`alter of pointer '${m[2]}' not found in the SDL`);
      out = alterDeclaration(out, member[0], subcommands(m[3] as string));
      continue;
    }
    m = /^set\s+default\s*:=\s*([\s\S]*)$/i.exec(sub);
    if (m) {
      out = addMember(withoutDefault(out, at), at, `default := ${(m[1] as string).trim()};`);
      continue;
    }
    if (/^reset\s+default$/i.test(sub)) {
      out = withoutDefault(out, at);
      continue;
    }
    m = /^set\s+(required|optional)$/i.exec(sub);
    if (m) {
      const head = /^(?:(?:required|optional)\s+)?/i.exec(out.slice(at)) as RegExpExecArray;
      const keep = (m[1] as string).toLowerCase() === 'required' ? 'required ' : '';
      out = out.slice(0, at) + keep + out.slice(at + head[0].length);
      continue;
    }
    if (/^(set|reset)\s+abstract$/i.test(sub)) {
      const head = /^(?:abstract\s+)?/i.exec(out.slice(at)) as RegExpExecArray;
      const keep = /^set/i.test(sub) ? 'abstract ' : '';
      out = out.slice(0, at) + keep + out.slice(at + head[0].length);
      continue;
    }
    m = /^drop\s+((?:constraint|property|link)\s[\s\S]*)$/i.exec(sub);
    if (m) {
      const wanted = squash(m[1] as string);
      const isPointer = /^(property|link)\s+(\w+)$/.exec(wanted);
      const member = members(out, at).find(([start, end]) => {
        const text = out.slice(start, end);
        return isPointer ? pointerName(text) === isPointer[2] : squash(text) === wanted;
      });
      if (!member) throw new DdlNotTranslated(`drop of '${firstLine(sub)}' not found in the SDL`);
      out = out.slice(0, member[0]) + out.slice(member[1]);
      continue;
    }
    throw new DdlNotTranslated(`alter with '${firstLine(sub)}'`);
  }
  return out;
}

/** The pointer a member declaration declares (`[required] [multi] property|link name ...` or
 * `name: T`), lower-cased, or null. */
function pointerName(text: string): string | null {
  const m =
    /^(?:(?:required|optional|multi|single|overloaded)\s+)*(?:(?:property|link)\s+([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*(?::|->))/i.exec(
      text,
    );
  const name = m ? (m[1] ?? m[2]) : undefined;
  return name && !/^(constraint|index|annotation|access|trigger|rewrite|default)$/i.test(name)
    ? name.toLowerCase()
    : null;
}

/** The index just past the parenthesis (or bracket) group opening at `open`. */
function groupEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "'" || ch === '"') {
      i = stringEnd(text, i) - 1;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return text.length;
}

/**
 * `alter function name(params) using (...)` (or `{ using (...); }`): the body of the function
 * declared with the same parameters (an overload is found by its parameter list as written,
 * whitespace aside) replaced. Other function changes are not translated.
 */
function alterFunction(sdl: string, name: string, rest: string): string {
  const paramsEnd = groupEnd(rest, 0);
  const params = squash(rest.slice(0, paramsEnd));
  const subs = subcommands(rest.slice(paramsEnd));
  const body = subs.length === 1 ? /^using\s*\(/i.exec(subs[0] as string) : null;
  if (!body) throw new DdlNotTranslated(`alter function with '${firstLine(subs.join('; '))}'`);
  const [, bare] = splitName(name);
  const escaped = bare.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(^|[\\s;{}])function\\s+${escaped}\\s*\\(`, 'gi');
  for (const match of sdl.matchAll(pattern)) {
    const open = (match.index as number) + match[0].length - 1;
    const close = groupEnd(sdl, open);
    if (squash(sdl.slice(open, close)) !== params) continue;
    // The declaration's own `using (` (at depth 0 after the parameters, or inside its block).
    const declStart = (match.index as number) + (match[1] as string).length;
    const { end } = declarationEnd(sdl, declStart);
    const using = /\busing\s*\(/i.exec(sdl.slice(close, end));
    if (!using) throw new DdlNotTranslated(`alter function: '${name}' has no using (...) body`);
    const usingStart = close + using.index;
    const usingEnd = groupEnd(sdl, usingStart + using[0].length - 1);
    return sdl.slice(0, usingStart) + (subs[0] as string).trim() + sdl.slice(usingEnd);
  }
  throw new DdlNotTranslated(`alter of function '${name}${params}' not found in the SDL`);
}

/** The new SDL after one DDL statement (`module`: the session's default module). */
export function applyDdl(sdl: string, statement: string, module: string | null = null): string {
  const head = statementHead(statement);
  // `with module m <ddl>`: the DDL's names resolve in `m`, as under a session whose module is `m`.
  const prefix = WITH_MODULE.exec(head);
  if (prefix) return applyDdl(sdl, head.slice(prefix[0].length), prefix[1] as string);
  const ddl = head;
  const lower = ddl.toLowerCase();
  let m = /^create\s+module\s+([\w:]+)(\s+if\s+not\s+exists)?\s*$/i.exec(ddl);
  if (m) return `${sdl}\n\nmodule ${m[1] as string} {}`;
  m =
    /^create\s+((?:abstract\s+|required\s+|optional\s+|multi\s+|single\s+)*(?:scalar\s+type|type|function|alias|global|constraint|link|property|annotation))\s+([\w:]+)/i.exec(
      ddl,
    );
  if (m) {
    const session = module ?? 'default';
    const [inModule, bare] = splitName(m[2] as string, session);
    let declaration = bodyToSdl(ddl).replace(m[2] as string, bare);
    // DDL resolves the names of an alias's or a computed global's expression in the session's
    // module (Gel compiles it with the session's module aliases); SDL in the declaring module's:
    // `with module` keeps Gel's resolution when the two differ.
    const computed =
      /^((?:required\s+|optional\s+|multi\s+|single\s+)*(?:global|alias)\s+\w+\s*:=\s*)([\s\S]*?)(;?\s*)$/i.exec(
        declaration,
      );
    if (computed && inModule !== session) {
      declaration = `${computed[1]}(with module ${session} select ${computed[2]})${computed[3]}`;
    }
    return `${sdl}\n\nmodule ${inModule} {\n${declaration}\n}`;
  }
  // A migration script: `start migration to { SDL }` is the whole new schema; the rest of it
  // (`populate`, `commit`) changes nothing more.
  m = /^start\s+migration\s+to\s*\{/i.exec(ddl);
  if (m) return ddl.slice(m[0].length, ddl.lastIndexOf('}')).trim();
  if (/^(populate|commit)\s+migration$/i.test(ddl)) return sdl;
  m = /^alter\s+(type|global)\s+([\w:]+)\s*/i.exec(ddl);
  if (m) {
    const kind = (m[1] as string).toLowerCase();
    const at = findDeclaration(sdl, kind, m[2] as string, module ?? 'default');
    if (at === null) throw new DdlNotTranslated(`alter of ${kind} '${m[2]}' not found in the SDL`);
    return alterDeclaration(sdl, at, subcommands(ddl.slice(m[0].length)));
  }
  m = /^alter\s+function\s+([\w:]+)\s*\(/i.exec(ddl);
  if (m) return alterFunction(sdl, m[1] as string, ddl.slice(m[0].length - 1));
  // Futures svc has no switch for: `warn_old_scoping` only adds warnings, and svc's scoping is
  // `simple_scoping`'s (Gel's harness runs every test with it).
  if (/^(create|drop)\s+future\s+(warn_old_scoping|simple_scoping)$/i.test(ddl)) return sdl;
  m = /^drop\s+(type|scalar\s+type|alias|function|global)\s+([\w:]+)/i.exec(ddl);
  if (m) {
    const kind = (m[1] as string).toLowerCase().replace(/\s+/g, ' ');
    const at = findDeclaration(sdl, kind, m[2] as string, module ?? 'default');
    if (at === null) throw new DdlNotTranslated(`drop of ${kind} '${m[2]}' not found in the SDL`);
    const { end } = declarationEnd(sdl, at);
    return sdl.slice(0, at) + sdl.slice(end);
  }
  throw new DdlNotTranslated(`DDL not translated to SDL: ${firstLine(lower)}`);
}
