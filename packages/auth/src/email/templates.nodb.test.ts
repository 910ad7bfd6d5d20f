import { validateBranding } from '../branding';
import type { RenderedEmail, TemplateContext } from '../types';
import {
  magicCodeEmail,
  magicLinkEmail,
  magicLinkSignupEmail,
  passwordResetEmail,
  passwordResetLink,
  verificationEmail,
  verificationLink,
} from './templates';

const base = 'https://app.example.com';
const ctx = (
  branding: Parameters<typeof validateBranding>[0] = {},
  recipient = 'ann@example.com',
): TemplateContext => ({
  branding: validateBranding(branding),
  recipient,
});

/** Every attribute value in the HTML, to check none was broken out of. */
function attributes(html: string): string[] {
  return [...html.matchAll(/\s([a-z-]+)="([^"]*)"/g)].map((m) => `${m[1]}=${m[2]}`);
}

const builtIns: [string, (t: string, c: TemplateContext) => RenderedEmail][] = [
  ['verification', (t, c) => verificationEmail({ ...c, baseUrl: base, verificationToken: t })],
  ['passwordReset', (t, c) => passwordResetEmail({ ...c, baseUrl: base, resetToken: t })],
  ['magicLink', (t, c) => magicLinkEmail({ ...c, baseUrl: base, magicLinkToken: t })],
  ['magicLinkSignup', (t, c) => magicLinkSignupEmail({ ...c, baseUrl: base, magicLinkToken: t })],
  ['magicCode', (t, c) => magicCodeEmail({ ...c, code: t })],
];

describe('links', () => {
  it('URL-encodes tokens', () => {
    expect(verificationLink(base, 'a/b+c=d&e')).toBe(
      'https://app.example.com/auth/verify?token=a%2Fb%2Bc%3Dd%26e',
    );
    expect(passwordResetLink(`${base}/`, 'x y')).toBe(
      'https://app.example.com/auth/reset?token=x%20y',
    );
  });
});

describe.each(builtIns)('built-in %s template', (name, render) => {
  it('has the appName in subject, text and HTML, default "Your account"', () => {
    const mail = render('tok123', ctx());
    expect(mail.subject).toContain('Your account');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    const branded = render('tok123', ctx({ appName: 'Acme Cloud' }));
    expect(branded.subject).toContain('Acme Cloud');
    expect(branded.text).toContain('Acme Cloud');
    expect(branded.html).toContain('Acme Cloud');
  });

  it('is a complete, table-based HTML document with no script, no external CSS', () => {
    const { html } = render('tok123', ctx({ appName: 'Acme', brandColor: '#ff6600' }));
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<table role="presentation"');
    expect(html).not.toMatch(/<script|<link|<style|@import/i);
    expect(html).toContain('#ff6600');
    expect(html).toContain('lang="en"');
  });

  it('escapes an appName, recipient and token full of markup and quotes', () => {
    const evil = `<script>alert("x")</script>'"&`;
    const mail = render(
      `tok"><script>alert(1)</script>`,
      ctx({ appName: evil }, 'a"<b>@example.com'),
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('a"<b>');
    expect(mail.html).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&quot;&amp;',
    );
    for (const attr of attributes(mail.html)) expect(attr).not.toMatch(/[<>]/);
    // the plain-text part is not HTML: the name appears as is
    expect(mail.text).toContain(evil);
  });

  it('shows the logo with alt = appName, and the dark logo through prefers-color-scheme', () => {
    const none = render('t', ctx({ appName: 'Acme' }));
    expect(none.html).not.toContain('<img');
    const light = render(
      't',
      ctx({ appName: 'Acme "Co"', logoUrl: 'https://cdn.example.com/logo.png?a=1&b="2"' }),
    );
    expect(light.html).toContain(
      '<img src="https://cdn.example.com/logo.png?a=1&amp;b=&quot;2&quot;" alt="Acme &quot;Co&quot;"',
    );
    expect(light.html).not.toContain('<picture>');
    const both = render(
      't',
      ctx({
        appName: 'Acme',
        logoUrl: 'https://cdn.example.com/l.png',
        darkLogoUrl: 'https://cdn.example.com/d.png',
      }),
    );
    expect(both.html).toContain(
      '<picture><source srcset="https://cdn.example.com/d.png" media="(prefers-color-scheme: dark)"><img src="https://cdn.example.com/l.png" alt="Acme"',
    );
  });

  it('refuses unvalidated branding it is handed directly: bad colour → default, bad logo → none', () => {
    const raw = {
      branding: {
        appName: 'Acme',
        brandColor: 'red;background:url(x)',
        logoUrl: 'javascript:alert(1)',
      },
      recipient: 'a@example.com',
    };
    const { html } = render('t', raw);
    expect(html).not.toContain('javascript:');
    expect(html).not.toContain('url(x)');
    expect(html).toContain('#2563eb');
  });

  it('gives oklch() a hex fallback declared first', () => {
    const { html } = render('t', ctx({ brandColor: 'oklch(62% 0.19 259)' }));
    expect(html).toMatch(/:#2563eb;[a-z-]+:oklch\(62% 0\.19 259\);/);
  });

  if (name !== 'magicCode') {
    it('links with the URL-encoded token in text and HTML (attribute-escaped)', () => {
      const mail = render('a/b&c"d', ctx());
      const encoded = encodeURIComponent('a/b&c"d');
      expect(encoded).toBe('a%2Fb%26c%22d');
      expect(mail.text).toContain(encoded);
      expect(mail.html).toContain(`href="https://app.example.com/auth/`);
      expect(mail.html).toContain(`?token=${encoded}"`);
    });
  }
});

describe('specific built-ins', () => {
  it('verification links to GET /auth/verify; reset to /auth/reset; magic to /auth/magic', () => {
    expect(builtIns[0]![1]('t1', ctx()).text).toContain(
      'https://app.example.com/auth/verify?token=t1',
    );
    expect(builtIns[1]![1]('t2', ctx()).text).toContain(
      'https://app.example.com/auth/reset?token=t2',
    );
    expect(builtIns[2]![1]('t3', ctx()).text).toContain(
      'https://app.example.com/auth/magic?token=t3',
    );
  });

  it('the magic link honours a given link', () => {
    const mail = magicLinkEmail({
      ...ctx(),
      baseUrl: base,
      magicLinkToken: 't',
      link: 'https://login.example.com/m/t',
    });
    expect(mail.text).toContain('https://login.example.com/m/t');
    expect(mail.text).not.toContain('/auth/magic');
  });

  it('the signup magic link is worded for a new user', () => {
    const mail = magicLinkSignupEmail({
      ...ctx({ appName: 'Acme' }),
      baseUrl: base,
      magicLinkToken: 't',
    });
    expect(mail.subject).toBe('Acme: finish creating your account');
    expect(mail.text).toContain('create your account');
  });

  it('the magic code shows the six digits in text and HTML', () => {
    const mail = magicCodeEmail({ ...ctx(), code: '042917' });
    expect(mail.text).toMatch(/^042917$/m);
    expect(mail.html).toContain('>042917</p>');
    expect(mail.subject).not.toContain('042917');
  });
});
