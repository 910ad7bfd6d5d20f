/**
 * @svc/dom: the one way svc's browser pages make DOM (the admin UI, the API reference page at
 * `/api/docs`, the demo). Each page bundles it at build time (esbuild); nothing installs it.
 *
 * `h(tag, attrs, ...children)` builds an element. The rules that keep a value from the database
 * or a document harmless live here, once:
 * - text is always set as text (text nodes, `value`), never parsed as HTML: a value holding
 *   `<img onerror=...>` shows as those characters; there is no `innerHTML` anywhere;
 * - handlers are functions (`onclick: () => ...`); an `on*` attribute given as a string, and
 *   `style`, are dropped (the pages' CSP refuses inline handlers and styles anyway);
 * - a URL attribute (`href`, `src`, `action`, `formaction`) is kept only when it stays on the
 *   page or the origin (`#...`, or `/...` but not `//...`): a value never becomes a
 *   `javascript:` link or a way to another site.
 */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

export type Attrs = Readonly<Record<string, unknown>>;

const URL_ATTRIBUTE = /^(href|src|action|formaction)$/i;

/** Whether `url` stays on this page or this origin. */
export function isLocalUrl(url: string): boolean {
  return (
    url.startsWith('#') || (url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\'))
  );
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (/^on/i.test(name)) {
      if (typeof value === 'function')
        el.addEventListener(name.slice(2).toLowerCase(), value as EventListener);
    } else if (name === 'style') {
      // Never from values: classes style the pages.
    } else if (name === 'class') {
      el.className = String(value);
    } else if (name === 'value' && 'value' in el) {
      (el as HTMLInputElement).value = String(value);
    } else if (name === 'checked' && 'checked' in el) {
      (el as HTMLInputElement).checked = Boolean(value);
    } else if (URL_ATTRIBUTE.test(name)) {
      const url = String(value);
      if (isLocalUrl(url)) el.setAttribute(name, url);
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/** Appends `children` (text as text nodes, arrays flattened, empty values skipped). */
export function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child as readonly Child[]);
    else if (child instanceof Node) parent.appendChild(child);
    else parent.appendChild(document.createTextNode(String(child)));
  }
}

/** Appends `children` to `el`. */
export function add(el: Element, ...children: Child[]): void {
  append(el, children);
}

/** Replaces the children of `el`. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** The value of a form's named field (an input, a textarea or a select); '' when absent. */
export function field(form: HTMLFormElement, name: string): string {
  const el = form.elements.namedItem(name) as
    | HTMLInputElement
    | HTMLTextAreaElement
    | HTMLSelectElement
    | null;
  return el?.value ?? '';
}
