/**
 * The one way the demo makes DOM: `h(tag, attrs, ...children)`. Text is always set as text (text
 * nodes), never parsed as HTML, so a note holding `<img onerror=...>` shows as those characters.
 * Handlers are functions (`onclick`), never strings: the page runs under `script-src 'self'`.
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, unknown> | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function')
      el.addEventListener(name.slice(2), value as EventListener);
    else if (name === 'class') el.className = String(value);
    else if (name === 'value') (el as HTMLInputElement).value = String(value);
    else if (name === 'checked') (el as HTMLInputElement).checked = Boolean(value);
    else if (name === 'href') {
      // Only the app's own paths: a value never becomes a javascript: link.
      const url = String(value);
      if (url.startsWith('/') && !url.startsWith('//')) el.setAttribute(name, url);
    } else if (!name.startsWith('on') && name !== 'style')
      el.setAttribute(name, value === true ? '' : String(value));
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

/** The value of a form's named field (text inputs and textareas). */
export function field(form: HTMLFormElement, name: string): string {
  const el = form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | null;
  return el?.value ?? '';
}
