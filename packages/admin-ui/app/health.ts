/** Health: the figures of `GET /stats` (the same as `/metrics`), refreshed every 5 seconds. */
import { call } from './api';
import { type Child, h, replace } from './dom';
import type { ViewContext } from './main';

export async function healthView(el: HTMLElement, _ctx: ViewContext): Promise<void> {
  const body = h('div', { id: 'health' });
  replace(el, h('div', { class: 'main wide' }, h('h2', null, 'Health'), body));
  const load = async () => {
    const [ready, stats] = await Promise.all([
      call('/health/ready').then(
        () => 'ready',
        (err: Error) => `not ready: ${err.message}`,
      ),
      call<unknown>('/stats').then((a) => a.data),
    ]);
    replace(
      body,
      h('p', { class: ready === 'ready' ? 'ok' : 'message' }, `Database: ${ready}`),
      render(stats),
    );
  };
  await load();
  const timer = setInterval(() => {
    if (!document.body.contains(body)) {
      clearInterval(timer);
      return;
    }
    void load().catch(() => undefined);
  }, 5000);
}

/** Nested figures as nested tables of text. */
function render(v: unknown, depth = 0): Child {
  if (v === null || typeof v !== 'object') return String(v);
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== 'object')) return v.join(', ');
    return h('div', null, ...v.map((x) => render(x, depth + 1)));
  }
  return h(
    'table',
    { class: depth === 0 ? 'grid figures' : 'grid inner' },
    h(
      'tbody',
      null,
      ...Object.entries(v as Record<string, unknown>).map(([k, x]) =>
        h('tr', null, h('th', null, k), h('td', null, render(x, depth + 1))),
      ),
    ),
  );
}
