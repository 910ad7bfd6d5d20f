/**
 * svc notes, in the browser: every call goes through @svc/client (`client.query` for the notes,
 * `client.auth` for signing in), to the svc that serves this page. Three pages, routed by path:
 * `/` signs in or up (password, an emailed link, a passkey; a TOTP step when one is owed),
 * `/notes` lists what the access policies let the user read (their own notes and the shared
 * ones of others: the page never filters by owner) and `/account` adds a passkey or TOTP.
 *
 * A sign-in through a hosted page (the emailed link) comes back to `/notes` with the session in
 * the URL's fragment: it is read at once, dropped from the URL and handed to
 * `client.auth.setSession`.
 */
import { createClient, type MfaChallenge, type Session } from '@svc/client';
import { field, h, replace } from '@svc/dom';

interface Note {
  readonly id: string;
  readonly title: string;
  readonly body: string | null;
  readonly shared: boolean;
  readonly owner_id: string;
  readonly owner_email: string;
}

const client = createClient({ url: location.origin });
const root = document.getElementById('app') as HTMLElement;
let session: Session | null = null;

const NOTES_QUERY = `select Note { id, title, body, shared, owner_id, owner_email }
  order by .created_at desc`;

/** An error's message for people: the server's own words without the code prefix. */
function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/^[A-Z_]+: /, '');
}

function status(kind: 'error' | 'info' = 'error') {
  const el = h('p', {
    class: `status ${kind}`,
    role: kind === 'error' ? 'alert' : 'status',
    'aria-live': 'polite',
    hidden: true,
  });
  return {
    el,
    show(text: string, as: 'error' | 'info' = kind) {
      el.className = `status ${as}`;
      el.setAttribute('role', as === 'error' ? 'alert' : 'status');
      el.hidden = false;
      replace(el, text);
    },
    clear() {
      el.hidden = true;
      replace(el);
    },
  };
}

/** Runs `fn` with `button` disabled, showing a failure in `out`. */
async function busy(
  button: HTMLButtonElement | null,
  out: ReturnType<typeof status>,
  fn: () => Promise<void>,
) {
  if (button) button.disabled = true;
  out.clear();
  try {
    await fn();
  } catch (err) {
    out.show(messageOf(err));
  } finally {
    if (button) button.disabled = false;
  }
}

function navigate(path: string): void {
  if (location.pathname !== path) history.pushState(null, '', path);
  void render();
}

function link(path: string, text: string, current: boolean) {
  return h(
    'a',
    {
      href: path,
      'aria-current': current ? 'page' : undefined,
      onclick: (e: MouseEvent) => {
        e.preventDefault();
        navigate(path);
      },
    },
    text,
  );
}

function header() {
  const path = location.pathname;
  return h(
    'header',
    { class: 'top' },
    h('a', { class: 'brand', href: '/notes' }, 'svc notes'),
    session &&
      h(
        'nav',
        { 'aria-label': 'Main' },
        link('/notes', 'Notes', path === '/notes'),
        link('/account', 'Account', path === '/account'),
        h('span', { class: 'who', 'data-testid': 'who' }, session.user.email),
        h(
          'button',
          {
            type: 'button',
            class: 'quiet',
            onclick: async () => {
              await client.auth.signOut();
              navigate('/');
            },
          },
          'Sign out',
        ),
      ),
  );
}

function page(title: string, ...children: Parameters<typeof h>[2][]) {
  const heading = h('h1', { tabindex: '-1' }, title);
  replace(root, header(), h('main', null, heading, ...children));
  document.title = `${title} · svc notes`;
  heading.focus();
}

// ---- Sign in and sign up -------------------------------------------------------------------

function signInPage(): void {
  const out = status();
  const form = h(
    'form',
    { class: 'card', 'aria-labelledby': 'password-heading' },
    h('h2', { id: 'password-heading' }, 'With a password'),
    h('label', { for: 'email' }, 'Email'),
    h('input', {
      id: 'email',
      name: 'email',
      type: 'email',
      autocomplete: 'username webauthn',
      required: true,
    }),
    h('label', { for: 'password' }, 'Password'),
    h('input', {
      id: 'password',
      name: 'password',
      type: 'password',
      autocomplete: 'current-password',
      minlength: '8',
    }),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit', value: 'sign-in' }, 'Sign in'),
      h('button', { type: 'submit', value: 'sign-up', class: 'secondary' }, 'Create account'),
    ),
  );
  form.addEventListener('submit', (e: SubmitEvent) => {
    e.preventDefault();
    const button = e.submitter as HTMLButtonElement | null;
    const email = field(form, 'email');
    const password = field(form, 'password');
    void busy(button, out, async () => {
      if (!password) throw new Error('Enter a password (at least 8 characters).');
      if (button?.value === 'sign-up') {
        session = await client.auth.signUp({ email, password });
        return navigate('/notes');
      }
      const result = await client.auth.signIn({ email, password });
      if (result.mfa) return totpStep(result.mfa);
      session = result.session;
      navigate('/notes');
    });
  });

  const linkButton = h('button', { type: 'button', class: 'secondary' }, 'Email me a sign-in link');
  linkButton.addEventListener('click', () => {
    const email = field(form, 'email');
    void busy(linkButton, out, async () => {
      if (!email) throw new Error('Enter your email first.');
      await client.auth.signInWithMagicLink({ email });
      out.show(
        `A sign-in link is on its way to ${email}. In development the emails are kept in the inbox at /_/mail: open it and follow the link.`,
        'info',
      );
    });
  });
  const passkeyButton = h(
    'button',
    { type: 'button', class: 'secondary' },
    'Sign in with a passkey',
  );
  passkeyButton.addEventListener('click', () => {
    void busy(passkeyButton, out, async () => {
      const result = await client.auth.signInWithPasskey();
      if (result.mfa) return totpStep(result.mfa);
      session = result.session;
      navigate('/notes');
    });
  });

  page(
    'Sign in to svc notes',
    h(
      'p',
      { class: 'lede' },
      'Your notes are yours; the ones you share are readable by everyone signed in.',
    ),
    h(
      'div',
      { class: 'columns' },
      form,
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'other-heading' },
        h('h2', { id: 'other-heading' }, 'Without a password'),
        h(
          'p',
          null,
          'Get a one-time link by email (enter your email on the left), or use a passkey of this device.',
        ),
        h('div', { class: 'stack' }, linkButton, passkeyButton),
        h(
          'p',
          { class: 'hint' },
          'Development inbox: ',
          h('a', { href: '/_/mail', target: '_blank', rel: 'noopener' }, '/_/mail'),
        ),
      ),
    ),
    out.el,
  );
}

function totpStep(challenge: MfaChallenge): void {
  const out = status();
  const form = h(
    'form',
    { class: 'card narrow' },
    h('p', null, 'Enter the 6-digit code from your authenticator app.'),
    h('label', { for: 'totp-code' }, 'Code'),
    h('input', {
      id: 'totp-code',
      name: 'code',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      pattern: '[0-9]{6}',
      maxlength: '6',
      required: true,
    }),
    h('div', { class: 'row' }, h('button', { type: 'submit' }, 'Verify')),
  );
  form.addEventListener('submit', (e: SubmitEvent) => {
    e.preventDefault();
    void busy(e.submitter as HTMLButtonElement, out, async () => {
      session = await client.auth.mfa.verifyTotp(challenge, field(form, 'code').trim());
      navigate('/notes');
    });
  });
  page('Two-factor check', form, out.el);
  (form.elements.namedItem('code') as HTMLInputElement).focus();
}

// ---- Notes ----------------------------------------------------------------------------------

function noteForm(note: Note | null, onDone: () => void, onCancel?: () => void) {
  const out = status();
  const id = note ? `note-${note.id}` : 'new-note';
  const form = h(
    'form',
    { class: 'note-form', 'aria-label': note ? `Edit ${note.title}` : 'New note' },
    h('label', { for: `${id}-title` }, 'Title'),
    h('input', {
      id: `${id}-title`,
      name: 'title',
      required: true,
      maxlength: '200',
      value: note?.title ?? '',
    }),
    h('label', { for: `${id}-body` }, 'Text'),
    h(
      'textarea',
      { id: `${id}-body`, name: 'body', rows: '3', maxlength: '10000' },
      note?.body ?? '',
    ),
    h(
      'label',
      { class: 'check' },
      h('input', { type: 'checkbox', name: 'shared', checked: note?.shared ?? false }),
      ' Shared: everyone signed in can read it',
    ),
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit' }, note ? 'Save' : 'Add note'),
      onCancel && h('button', { type: 'button', class: 'quiet', onclick: onCancel }, 'Cancel'),
    ),
    out.el,
  );
  form.addEventListener('submit', (e: SubmitEvent) => {
    e.preventDefault();
    const values = {
      title: field(form, 'title').trim(),
      body: field(form, 'body'),
      shared: (form.elements.namedItem('shared') as HTMLInputElement).checked,
    };
    void busy(e.submitter as HTMLButtonElement, out, async () => {
      if (note)
        await client.execute(
          `update Note filter .id = <uuid>$id
           set { title := <str>$title, body := <str>$body, shared := <bool>$shared }`,
          { id: note.id, ...values },
        );
      else
        await client.execute(
          'insert Note { title := <str>$title, body := <str>$body, shared := <bool>$shared }',
          values,
        );
      onDone();
    });
  });
  return form;
}

function noteCard(note: Note, mine: boolean, reload: () => void) {
  const out = status();
  const card = h('article', {
    class: `note${note.shared ? ' shared' : ''}`,
    'aria-label': note.title,
  });
  const show = () =>
    replace(
      card,
      h('h3', null, note.title),
      note.body ? h('p', { class: 'body' }, note.body) : null,
      h(
        'p',
        { class: 'meta' },
        mine
          ? note.shared
            ? h('span', { class: 'badge' }, 'Shared')
            : h('span', { class: 'badge private' }, 'Private')
          : `by ${note.owner_email}`,
      ),
      mine &&
        h(
          'div',
          { class: 'row' },
          h('button', { type: 'button', class: 'secondary', onclick: edit }, 'Edit'),
          h(
            'button',
            { type: 'button', class: 'secondary', onclick: toggle },
            note.shared ? 'Unshare' : 'Share',
          ),
          h('button', { type: 'button', class: 'danger', onclick: remove }, 'Delete'),
        ),
      out.el,
    );
  const edit = () => {
    const form = noteForm(note, reload, show);
    replace(card, form);
    (form.elements.namedItem('title') as HTMLInputElement).focus();
  };
  const toggle = (e: MouseEvent) =>
    busy(e.currentTarget as HTMLButtonElement, out, async () => {
      await client.execute('update Note filter .id = <uuid>$id set { shared := not .shared }', {
        id: note.id,
      });
      reload();
    });
  const remove = (e: MouseEvent) =>
    busy(e.currentTarget as HTMLButtonElement, out, async () => {
      if (!confirm(`Delete "${note.title}"?`)) return;
      await client.execute('delete Note filter .id = <uuid>$id', { id: note.id });
      reload();
    });
  show();
  return card;
}

async function notesPage(): Promise<void> {
  const out = status();
  const mineList = h('div', { class: 'notes', 'data-testid': 'my-notes' });
  const othersList = h('div', { class: 'notes', 'data-testid': 'shared-notes' });
  const load = async () => {
    try {
      // Every Note the policies let this user read: nothing is filtered here.
      const notes = await client.query<Note>(NOTES_QUERY);
      const me = session?.user.id;
      const mine = notes.filter((n) => n.owner_id === me);
      const others = notes.filter((n) => n.owner_id !== me);
      replace(
        mineList,
        mine.length
          ? mine.map((n) => noteCard(n, true, reload))
          : h('p', { class: 'empty' }, 'No notes yet. Add one above.'),
      );
      replace(
        othersList,
        others.length
          ? others.map((n) => noteCard(n, false, reload))
          : h('p', { class: 'empty' }, 'Nobody has shared a note yet.'),
      );
    } catch (err) {
      out.show(messageOf(err));
    }
  };
  const reload = () => void load();
  page(
    'Notes',
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'new-heading' },
      h('h2', { id: 'new-heading' }, 'New note'),
      noteForm(null, () => {
        const form = root.querySelector<HTMLFormElement>('form.note-form');
        form?.reset();
        reload();
      }),
    ),
    out.el,
    h(
      'section',
      { 'aria-labelledby': 'mine-heading' },
      h('h2', { id: 'mine-heading' }, 'Your notes'),
      mineList,
    ),
    h(
      'section',
      { 'aria-labelledby': 'others-heading' },
      h('h2', { id: 'others-heading' }, 'Shared by others'),
      othersList,
    ),
  );
  await load();
}

// ---- Account --------------------------------------------------------------------------------

function accountPage(): void {
  const passkeyOut = status();
  const passkeyForm = h(
    'form',
    { class: 'card', 'aria-labelledby': 'passkey-heading' },
    h('h2', { id: 'passkey-heading' }, 'Passkeys'),
    h('p', null, 'Sign in with this device instead of a password.'),
    h('label', { for: 'passkey-name' }, 'Name'),
    h('input', { id: 'passkey-name', name: 'name', value: 'This device', maxlength: '100' }),
    h('div', { class: 'row' }, h('button', { type: 'submit' }, 'Add a passkey')),
    passkeyOut.el,
  );
  passkeyForm.addEventListener('submit', (e: SubmitEvent) => {
    e.preventDefault();
    void busy(e.submitter as HTMLButtonElement, passkeyOut, async () => {
      const passkey = await client.auth.registerPasskey({
        name: field(passkeyForm, 'name') || 'This device',
      });
      passkeyOut.show(`Passkey "${passkey.name}" added. You can sign in with it now.`, 'info');
    });
  });

  const totpOut = status();
  const totpBox = h('div');
  const startButton = h('button', { type: 'button' }, 'Set up an authenticator app');
  startButton.addEventListener('click', () => {
    void busy(startButton, totpOut, async () => {
      const { secret, otpauthUri } = await client.auth.mfa.enrollTotp();
      const confirmForm = h(
        'form',
        null,
        h(
          'p',
          null,
          'Add this key to your authenticator app (it can also take the otpauth address), then enter the code it shows.',
        ),
        h(
          'p',
          { class: 'secret' },
          h('span', { class: 'label' }, 'Key '),
          h('code', { 'data-testid': 'totp-secret' }, secret.replace(/(.{4})/g, '$1 ').trim()),
        ),
        h(
          'p',
          { class: 'secret' },
          h('span', { class: 'label' }, 'Address '),
          h('code', { class: 'uri' }, otpauthUri),
        ),
        h('label', { for: 'totp-confirm' }, 'Code'),
        h('input', {
          id: 'totp-confirm',
          name: 'code',
          inputmode: 'numeric',
          autocomplete: 'one-time-code',
          pattern: '[0-9]{6}',
          maxlength: '6',
          required: true,
        }),
        h('div', { class: 'row' }, h('button', { type: 'submit' }, 'Turn on two-factor')),
      );
      confirmForm.addEventListener('submit', (ev: SubmitEvent) => {
        ev.preventDefault();
        void busy(ev.submitter as HTMLButtonElement, totpOut, async () => {
          await client.auth.mfa.confirmTotp(field(confirmForm, 'code').trim());
          replace(totpBox);
          totpOut.show(
            'Two-factor sign-in is on: a sign-in with a password now asks for a code.',
            'info',
          );
        });
      });
      startButton.hidden = true;
      replace(totpBox, confirmForm);
      (confirmForm.elements.namedItem('code') as HTMLInputElement).focus();
    });
  });

  page(
    'Account',
    h('p', { class: 'lede' }, 'Signed in as ', h('strong', null, session?.user.email ?? '')),
    h(
      'div',
      { class: 'columns' },
      passkeyForm,
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'totp-heading' },
        h('h2', { id: 'totp-heading' }, 'Two-factor sign-in (TOTP)'),
        h('p', null, 'Ask for a code from an authenticator app after the password.'),
        h('div', { class: 'row' }, startButton),
        totpBox,
        totpOut.el,
      ),
    ),
  );
}

// ---- Routing --------------------------------------------------------------------------------

async function render(): Promise<void> {
  const path = location.pathname;
  if (!session && path !== '/') return navigate('/');
  if (session && path === '/') return navigate('/notes');
  if (path === '/notes') return notesPage();
  if (path === '/account') return accountPage();
  signInPage();
}

async function start(): Promise<void> {
  // Back from a hosted page (the emailed link): the session is in the fragment. Take it and
  // drop it from the URL and history at once.
  const handed = new URLSearchParams(location.hash.slice(1));
  const refreshToken = handed.get('refresh_token');
  if (refreshToken) {
    history.replaceState(null, '', location.pathname);
    try {
      session = await client.auth.setSession({ refreshToken });
    } catch {
      session = null;
    }
  } else {
    session = await client.auth.getSession().catch(() => null);
  }
  client.auth.onAuthStateChange((event, next) => {
    session = next;
    // Signed out elsewhere (another tab, or the session ended): back to the sign-in page.
    if (event === 'SIGNED_OUT' && location.pathname !== '/') navigate('/');
  });
  window.addEventListener('popstate', () => void render());
  await render();
}

void start();
