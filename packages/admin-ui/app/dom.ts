/**
 * The one way the app makes DOM: `h(tag, attrs, ...children)`. Text is always set as text
 * (`textContent` / text nodes), never parsed as HTML: a value from the database that holds
 * `<script>` or `<img onerror=...>` shows as those characters. There is no innerHTML anywhere.
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

export interface Attrs {
  [name: string]: unknown;
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (name.startsWith('on') && typeof value === 'function') {
        el.addEventListener(name.slice(2).toLowerCase(), value as EventListener);
      } else if (name === 'class') {
        el.className = String(value);
      } else if (name === 'value' && 'value' in el) {
        (el as HTMLInputElement).value = String(value);
      } else if (name === 'checked' && 'checked' in el) {
        (el as HTMLInputElement).checked = Boolean(value);
      } else if (/^(href|src|action|formaction)$/i.test(name)) {
        // Only app-relative URLs: a data value never becomes a javascript: link.
        const url = String(value);
        if (url.startsWith('/') && !url.startsWith('//')) el.setAttribute(name, url);
      } else if (/^on/i.test(name) || name === 'style') {
        // Never from strings (no inline handlers or styles: the CSP refuses them anyway).
      } else {
        el.setAttribute(name, value === true ? '' : String(value));
      }
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

/** Replaces the children of `el`. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}
