/**
 * The hosted pages' pieces: the redirect allow-list (no open redirect), the text colour on the
 * brand colour, the CSP, escaping in the layout; and the development mailbox's bound and order.
 */
import { DevMailbox } from '../email/dev-mailbox';
import { allowedRedirect, resolveRedirectAllowList } from './redirect';
import { contrastingText, pageCsp, pageLook, renderPage } from './render';

const OWN = 'http://127.0.0.1:5656';

describe('redirectAllowList', () => {
  const rules = resolveRedirectAllowList([
    'https://app.example.com',
    'https://other.example.com/auth/callback',
    'http://localhost:3000/',
  ]);

  test('allows listed origins (any path) and listed URLs (that path, any query)', () => {
    for (const ok of [
      'https://app.example.com/',
      'https://app.example.com/deep/path?x=1',
      'https://other.example.com/auth/callback?next=%2F',
      'http://localhost:3000/cb',
      '/dashboard',
    ])
      expect([ok, allowedRedirect(ok, rules, OWN)?.href]).toEqual([ok, expect.any(String)]);
  });

  test('refuses everything else', () => {
    for (const bad of [
      'https://evil.example.com/',
      'https://app.example.com.evil.example/',
      'https://evil.example/?https://app.example.com',
      'https://user@app.example.com/',
      'http://app.example.com/',
      'https://other.example.com/auth/callback/x',
      'https://other.example.com/',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
      'data:text/html,x',
      'https://app.example.com:8443/',
      ' https://app.example.com/',
      'https://app.example.com/\nx',
      '',
    ])
      expect([bad, allowedRedirect(bad, rules, OWN)]).toEqual([bad, undefined]);
  });

  test('drops a fragment of the given address (the session goes there)', () => {
    expect(allowedRedirect('https://app.example.com/a#b', rules, OWN)?.href).toBe(
      'https://app.example.com/a',
    );
  });

  test('bad entries fail at construction', () => {
    for (const bad of [
      'http://app.example.com',
      'https://*.example.com',
      'https://app.example.com/#x',
      'https://app.example.com/?q',
      'https://u:p@app.example.com',
      'javascript:alert(1)',
      'app.example.com',
      42,
    ])
      expect(() => resolveRedirectAllowList([bad])).toThrow(TypeError);
    expect(() => resolveRedirectAllowList('https://app.example.com')).toThrow(TypeError);
  });
});

describe('page rendering', () => {
  test('the text on the brand colour is the one with more contrast', () => {
    expect(contrastingText('#0f766e')).toBe('#ffffff');
    expect(contrastingText('#fde047')).toBe('#000000');
    expect(contrastingText('#fff')).toBe('#000000');
    expect(contrastingText('oklch(0.9 0.1 100)')).toBe('#000000');
    expect(contrastingText('oklch(40% 0.1 100)')).toBe('#ffffff');
  });

  test('the CSP has no inline script, hashes the stylesheet and names the logo origins', () => {
    const look = pageLook({
      appName: 'Acme',
      logoUrl: 'https://cdn.example.com/logo.png',
      darkLogoUrl: 'https://dark.example.com/logo.png',
    });
    const csp = pageCsp(look, ['https://app.example.com']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`style-src ${look.styleSource}`);
    expect(csp).toContain('img-src https://cdn.example.com https://dark.example.com');
    expect(csp).toContain("form-action 'self' https://app.example.com");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    const html = renderPage(look, { heading: 'Hi <there>', body: '<p>x</p>' });
    expect(html).toContain('<title>Hi &lt;there&gt; · Acme</title>');
    expect(html).toContain('media="(prefers-color-scheme: dark)"');
    expect(html).toContain('alt="Acme"');
  });
});

describe('DevMailbox', () => {
  test('newest first, bounded, the oldest dropped', () => {
    const box = new DevMailbox(3);
    for (let i = 1; i <= 5; i++)
      box.add({
        eventType: 'MagicLinkRequested',
        to: `u${i}@x`,
        subject: `s${i}`,
        text: '',
        html: '',
      });
    expect(box.list().map((m) => m.subject)).toEqual(['s5', 's4', 's3']);
    const first = box.list()[0];
    expect(box.get(first?.id as string)?.to).toBe('u5@x');
    box.clear();
    expect(box.list()).toEqual([]);
    expect(() => new DevMailbox(0)).toThrow(TypeError);
  });
});
