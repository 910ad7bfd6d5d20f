/** A light EdgeQL highlighter: tokens as spans (text only), for the editor's backdrop. */
import { h } from '@svc/dom';

const KEYWORDS = new Set(
  'select insert update delete filter order by limit offset with for in union if else group using set module type required multi single link property global function as and or not exists distinct like ilike is asc desc empty first last detached default true false'.split(
    ' ',
  ),
);

const TOKEN =
  /(#[^\n]*)|('(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?)|(\$[A-Za-z_][A-Za-z0-9_]*)|(<[A-Za-z_:][A-Za-z0-9_:<>, ]*>)|(\b\d+(?:\.\d+)?(?:e[+-]?\d+)?n?\b)|([A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)/gi;

/** The query as highlighted nodes; `mark` (offsets) is wrapped in an error mark. */
export function highlight(text: string, mark?: { start: number; end: number }): Node[] {
  const nodes: Node[] = [];
  let last = 0;
  const push = (s: string, cls?: string) => {
    if (s === '') return;
    nodes.push(cls ? h('span', { class: cls }, s) : document.createTextNode(s));
  };
  for (const m of text.matchAll(TOKEN)) {
    const i = m.index ?? 0;
    push(text.slice(last, i));
    const [tok] = m;
    let cls: string | undefined;
    if (m[1]) cls = 'tk-comment';
    else if (m[2]) cls = 'tk-string';
    else if (m[3]) cls = 'tk-param';
    else if (m[4]) cls = 'tk-cast';
    else if (m[5]) cls = 'tk-number';
    else if (m[6] && KEYWORDS.has(tok.toLowerCase())) cls = 'tk-keyword';
    else if (m[6] && tok.includes('::')) cls = 'tk-type';
    push(tok, cls);
    last = i + tok.length;
  }
  push(text.slice(last));
  if (!mark) return nodes;
  return withMark(nodes, mark.start, mark.end);
}

/** Wraps the characters [start, end) of the text of `nodes` in `<mark class="error-mark">`. */
function withMark(nodes: Node[], start: number, end: number): Node[] {
  const out: Node[] = [];
  let pos = 0;
  for (const node of nodes) {
    const text = node.textContent ?? '';
    const from = pos;
    const to = pos + text.length;
    pos = to;
    if (to <= start || from >= end) {
      out.push(node);
      continue;
    }
    const cls = node instanceof Element ? node.className : undefined;
    const a = Math.max(start, from) - from;
    const b = Math.min(end, to) - from;
    const piece = (s: string) => (cls ? h('span', { class: cls }, s) : document.createTextNode(s));
    if (a > 0) out.push(piece(text.slice(0, a)));
    out.push(h('mark', { class: 'error-mark' }, piece(text.slice(a, b))));
    if (b < text.length) out.push(piece(text.slice(b)));
  }
  return out;
}

/** The offset of a 1-based line and column in `text`. */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) return text.length;
    offset = nl + 1;
  }
  return Math.min(text.length, offset + Math.max(0, column - 1));
}
