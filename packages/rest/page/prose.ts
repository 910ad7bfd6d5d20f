import { type Child, h } from '@svc/dom';

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
