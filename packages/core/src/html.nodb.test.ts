import { escapeHtml } from './html';

describe('escapeHtml', () => {
  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    [`"'&`, '&quot;&#39;&amp;'],
    ['a="b" onload=x', 'a=&quot;b&quot; onload=x'],
    ['plain', 'plain'],
  ])('%s → %s', (input, expected) => expect(escapeHtml(input)).toBe(expected));
});
