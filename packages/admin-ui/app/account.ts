/**
 * Account: the signed-in superuser's own factors, through `/_/api/account/*` (the same @svc/auth
 * operations as `/auth/webauthn/*` and `/auth/mfa/*`, with the admin cookie as the credential):
 * passkeys (list, add with this browser's authenticator, remove) and the authenticator app
 * (TOTP: set up and confirm, turn off, new recovery codes). Managing a confirmed factor needs a
 * current code when the session did not prove one (svc answers 403 MFA_REQUIRED): the code
 * field is sent along when filled in.
 */
import { ApiError, call } from './api';
import { h, replace } from '@svc/dom';
import { passkeyRegister, passkeysAvailable } from './passkey';
import { type Passkey, passkeyTable, type ViewContext } from './view';

function problem(err: unknown): string {
  if (err instanceof DOMException) return 'The passkey ceremony was cancelled.';
  if (!(err instanceof ApiError)) return String(err instanceof Error ? err.message : err);
  if (err.code === 'MFA_REQUIRED')
    return 'svc asks for your second factor: type a current authenticator code (or a recovery code) in "Authenticator code" and try again.';
  return err.envelope.error;
}

export async function accountView(el: HTMLElement, ctx: ViewContext): Promise<void> {
  const me = ctx.session.caller;
  if (!me) return;
  const passkeys = ctx.session.passkey
    ? (await call<{ credentials: Passkey[] }>('/_/api/account/passkeys')).data.credentials
    : [];
  const status = h('p', { class: 'message', role: 'alert', id: 'account-status' });
  const done = h('p', { class: 'ok', id: 'account-done' });
  const code = h('input', {
    id: 'account-code',
    name: 'code',
    inputmode: 'numeric',
    autocomplete: 'one-time-code',
    placeholder: 'only when asked',
  });
  const given = () => code.value.trim() || undefined;
  /** Runs an action, then shows the page again with its outcome. */
  const act = async (fn: () => Promise<string>) => {
    status.textContent = '';
    done.textContent = '';
    try {
      const message = await fn();
      await accountView(el, ctx);
      const shown = document.getElementById('account-done');
      if (shown) shown.textContent = message;
    } catch (err) {
      status.textContent = problem(err);
    }
  };

  // Passkeys.
  const name = h('input', {
    id: 'passkey-name',
    placeholder: 'a name, e.g. "laptop"',
    'aria-label': 'Name of the new passkey',
    maxlength: 64,
  });
  const add = h('button', { type: 'submit', class: 'primary', id: 'add-passkey' }, 'Add a passkey');
  const addForm = h('form', { class: 'filters spaced', id: 'passkey-form' }, name, add);
  addForm.addEventListener('submit', (event) => {
    event.preventDefault();
    add.disabled = true;
    void act(async () => {
      const label = name.value.trim() || 'Passkey';
      await passkeyRegister(label, given());
      return `Passkey "${label}" added: sign in with it next time.`;
    }).finally(() => {
      add.disabled = false;
    });
  });
  let passkeySection: HTMLElement[];
  if (!ctx.session.passkey) {
    passkeySection = [
      h(
        'p',
        { class: 'muted', id: 'passkeys' },
        'Passkeys are off on this server: set [auth.webauthn] (origin, rp_id, rp_name) to use them.',
      ),
    ];
  } else {
    passkeySection = [
      passkeyTable(passkeys, {
        headers: ['name', 'added', 'last used'],
        empty: 'No passkey yet.',
        never: '—',
        removeClass: 'danger remove',
        confirmText: (p) => `Remove the passkey "${p.name}"?`,
        remove: (p) =>
          void act(async () => {
            const c = given();
            await call('/_/api/account/passkeys/delete', {
              method: 'POST',
              body: c ? { credentialId: p.id, code: c } : { credentialId: p.id },
            });
            return `Passkey "${p.name}" removed.`;
          }),
      }),
      passkeysAvailable()
        ? addForm
        : h(
            'p',
            { class: 'muted' },
            'This page cannot use passkeys: browsers allow them over https, or on localhost.',
          ),
    ];
  }

  // The authenticator app (TOTP).
  const totpBox = h('div', { id: 'totp-setup' });
  const enroll = async () => {
    status.textContent = '';
    done.textContent = '';
    let secret: { secret: string; otpauthUri: string };
    try {
      const c = given();
      secret = (
        await call<{ secret: string; otpauthUri: string }>('/_/api/account/totp/enroll', {
          method: 'POST',
          body: c ? { code: c } : {},
        })
      ).data;
    } catch (err) {
      status.textContent = problem(err);
      return;
    }
    const confirmCode = h('input', {
      id: 'totp-confirm-code',
      inputmode: 'numeric',
      autocomplete: 'one-time-code',
      'aria-label': 'A code from the app',
      placeholder: '6-digit code',
      required: true,
    });
    const confirmForm = h(
      'form',
      { class: 'filters', id: 'totp-confirm-form' },
      confirmCode,
      h('button', { type: 'submit', class: 'primary' }, 'Confirm'),
    );
    confirmForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void act(async () => {
        await call('/_/api/account/totp/confirm', {
          method: 'POST',
          body: { code: confirmCode.value.trim() },
        });
        return 'Two-factor sign-in is on: the app’s code is asked for after the password.';
      });
    });
    replace(
      totpBox,
      h(
        'p',
        null,
        'Add this key to your authenticator app (as text, or the otpauth link), then type a code it shows:',
      ),
      h('p', { class: 'mono', id: 'totp-secret' }, secret.secret),
      h('p', { class: 'mono muted', id: 'totp-uri' }, secret.otpauthUri),
      confirmForm,
    );
    confirmCode.focus();
  };
  const recoveryList = h('div', { id: 'recovery-codes' });
  const newRecoveryCodes = async () => {
    status.textContent = '';
    done.textContent = '';
    try {
      const c = given();
      const { codes } = (
        await call<{ codes: string[] }>('/_/api/account/recovery-codes', {
          method: 'POST',
          body: c ? { code: c } : {},
        })
      ).data;
      replace(
        recoveryList,
        h(
          'p',
          null,
          'Keep these where you keep passwords; each works once, and earlier ones no longer do:',
        ),
        h('ul', { class: 'mono' }, ...codes.map((x) => h('li', null, x))),
      );
    } catch (err) {
      status.textContent = problem(err);
    }
  };

  replace(
    el,
    h(
      'div',
      { class: 'main wide' },
      h(
        'section',
        { class: 'card record', id: 'account' },
        h('h2', null, 'Your account'),
        h('p', { class: 'muted' }, `${me.email} · ${me.roles.join(', ')}`),
        h('label', { for: 'account-code' }, 'Authenticator code '),
        code,
        h(
          'p',
          { class: 'muted' },
          'Once two-factor sign-in is on, changing a factor asks for a current code (or a recovery code) unless this session proved one.',
        ),
        h('h4', null, 'Passkeys'),
        ...passkeySection,
        h('h4', null, 'Authenticator app (TOTP)'),
        h(
          'p',
          { class: 'muted' },
          'A 6-digit code from an app, asked for after the password at sign-in.',
        ),
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            { type: 'button', id: 'totp-enroll', onclick: () => void enroll() },
            'Set up',
          ),
          h(
            'button',
            {
              type: 'button',
              id: 'totp-disable',
              class: 'danger',
              onclick: () =>
                void act(async () => {
                  const c = given();
                  await call('/_/api/account/totp/disable', {
                    method: 'POST',
                    body: c ? { code: c } : {},
                  });
                  return 'Two-factor sign-in is off.';
                }),
            },
            'Turn off',
          ),
          h(
            'button',
            { type: 'button', id: 'new-recovery-codes', onclick: () => void newRecoveryCodes() },
            'New recovery codes',
          ),
        ),
        totpBox,
        recoveryList,
        done,
        status,
      ),
    ),
  );
}
