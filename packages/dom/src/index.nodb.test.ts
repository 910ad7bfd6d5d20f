/**
 * The rules of @svc/dom, checked in Debian's chromium (the module is bundled by esbuild, as the
 * pages bundle it): values stay text, handlers only as functions, URLs only local.
 */
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '@svc/test-support';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [path.join(__dirname, 'index.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'svcDom',
    write: false,
    logLevel: 'silent',
  });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.setContent('<!doctype html><body></body>');
  await page.addScriptTag({ content: bundle.outputFiles[0]?.text ?? '' });
}, 60_000);
afterAll(() => browser?.close());

type Dom = typeof import('./index');
const inPage = <T>(fn: (dom: Dom) => T): Promise<T> =>
  page.evaluate(`(${fn.toString()})(window.svcDom)`) as Promise<T>;

test('text is text: markup in a value is shown, never parsed', async () => {
  const html = await inPage((dom) => {
    const el = dom.h(
      'p',
      { title: '"><img src=x onerror=alert(1)>' },
      '<img src=x onerror=alert(1)>',
      3,
      [null, false, '<b>x</b>'],
    );
    return { html: el.innerHTML, imgs: el.querySelectorAll('img').length, text: el.textContent };
  });
  expect(html.imgs).toBe(0);
  expect(html.text).toBe('<img src=x onerror=alert(1)>3<b>x</b>');
  expect(html.html).toBe('&lt;img src=x onerror=alert(1)&gt;3&lt;b&gt;x&lt;/b&gt;');
});

test('handlers only as functions; on* strings and style are dropped', async () => {
  const r = await inPage((dom) => {
    let clicks = 0;
    const b = dom.h('button', {
      onClick: () => clicks++,
      onmouseover: 'alert(1)',
      ONFOCUS: 'alert(2)',
      style: 'background:url(javascript:alert(3))',
    });
    b.click();
    return { clicks, attrs: b.getAttributeNames() };
  });
  expect(r).toEqual({ clicks: 1, attrs: [] });
});

test('URL attributes keep only this page and this origin', async () => {
  const kept = await inPage((dom) =>
    [
      '/_/data/Book',
      '#tag-books',
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      '//evil.example/x',
      '/\\evil.example/x',
      'https://evil.example/',
      'data:text/html,<script>alert(1)</script>',
    ].map((url) => ({
      url,
      a: dom.h('a', { href: url }).getAttribute('href'),
      img: dom.h('img', { src: url }).getAttribute('src'),
      form: dom.h('form', { action: url }).getAttribute('action'),
    })),
  );
  for (const k of kept) {
    const local = k.url === '/_/data/Book' || k.url === '#tag-books';
    expect([k.url, k.a, k.img, k.form]).toEqual([
      k.url,
      ...(local ? [k.url, k.url, k.url] : [null, null, null]),
    ]);
  }
});

test('value, checked, class, boolean attributes; replace and field', async () => {
  const r = await inPage((dom) => {
    const form = dom.h(
      'form',
      null,
      dom.h('input', { name: 'title', value: '<x>' }),
      dom.h('input', { type: 'checkbox', name: 'shared', checked: true }),
      dom.h('select', { name: 'kind' }, dom.h('option', { value: 'a' }, 'A')),
    );
    const box = dom.h('div', { class: 'a b', hidden: true, 'data-x': 1 });
    dom.replace(box, 'one');
    dom.replace(box, 'two', dom.h('span', null, 'three'));
    dom.add(box, 'four');
    return {
      title: dom.field(form, 'title'),
      kind: dom.field(form, 'kind'),
      missing: dom.field(form, 'nope'),
      checked: (form.elements.namedItem('shared') as HTMLInputElement).checked,
      box: box.outerHTML,
    };
  });
  expect(r).toEqual({
    title: '<x>',
    kind: 'a',
    missing: '',
    checked: true,
    box: '<div class="a b" hidden="" data-x="1">two<span>three</span>four</div>',
  });
});
