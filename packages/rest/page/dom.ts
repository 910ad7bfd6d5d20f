/**
 * The one way the page makes DOM: `h(tag, attrs, ...children)`. Text from the document (names,
 * descriptions, examples) or from an answer is always set as text, never parsed as HTML, so a
 * description holding `<script>` shows those characters. No innerHTML anywhere; no inline style
 * or handler (the page's Content-Security-Policy refuses them anyway).
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, unknown>> | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2).toLowerCase(), value as EventListener);
    } else if (name === 'class') {
      el.className = String(value);
    } else if (name === 'value' && 'value' in el) {
      (el as HTMLInputElement).value = String(value);
    } else if (name === 'href') {
      // Only in-page and same-origin links: a document value never becomes a javascript: link.
      const url = String(value);
      if (url.startsWith('#') || (url.startsWith('/') && !url.startsWith('//')))
        el.setAttribute(name, url);
    } else if (!/^on/i.test(name) && name !== 'style') {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child as readonly Child[]);
    else if (child instanceof Node) parent.appendChild(child);
    else parent.appendChild(document.createTextNode(String(child)));
  }
}

/**
 * A description as text, with `code` spans kept apart (the document's descriptions use
 * Markdown backticks and nothing else of Markdown).
 */
export function prose(text: unknown): Child {
  if (typeof text !== 'string' || text === '') return null;
  const parts = text.split(/(`[^`]+`)/);
  return h(
    'p',
    { class: 'prose' },
    parts.map((p) =>
      p.startsWith('`') && p.endsWith('`') && p.length > 1 ? h('code', null, p.slice(1, -1)) : p,
    ),
  );
}

/** Replaces the children of `el`. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** Appends `children` to `el`. */
export function add(el: Element, ...children: Child[]): void {
  append(el, children);
}
