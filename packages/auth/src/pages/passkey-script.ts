/**
 * The passkey page's script, served by the server itself (`GET /auth/pages/passkey.js`; the
 * pages' CSP allows scripts from their own origin only). It asks `/auth/webauthn/login/begin` for
 * the options, calls `navigator.credentials.get` (base64url in and out), and posts the assertion
 * with the page's own form to `POST /auth/passkey`, which signs in exactly as the JSON route does
 * and answers a page (the signed-in state, the redirect, or the MFA step).
 */
export const PASSKEY_SCRIPT = `'use strict';
(function () {
  function decode(s) {
    var b = s.replace(/-/g, '+').replace(/_/g, '/');
    b += '==='.slice((b.length + 3) % 4);
    var bin = atob(b);
    var out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out.buffer;
  }
  function encode(buf) {
    var bytes = new Uint8Array(buf);
    var s = '';
    for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    return btoa(s).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  }
  function show(status, text) {
    status.textContent = text;
    status.hidden = !text;
  }
  document.addEventListener('DOMContentLoaded', function () {
    var start = document.getElementById('passkey-start');
    var finish = document.getElementById('passkey-finish');
    var status = document.getElementById('passkey-status');
    if (!start || !finish || !status) return;
    if (!window.PublicKeyCredential || !navigator.credentials) {
      show(status, 'This browser does not support passkeys.');
      return;
    }
    start.hidden = false;
    start.addEventListener('submit', function (ev) {
      ev.preventDefault();
      var email = start.elements.namedItem('email').value.trim();
      var button = start.querySelector('button');
      button.disabled = true;
      show(status, '');
      fetch(start.getAttribute('data-begin'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(email ? { email: email } : {}),
        credentials: 'omit',
      })
        .then(function (res) {
          return res.json().then(function (body) {
            if (!res.ok) throw new Error(body && body.error ? body.error : 'the sign-in could not start');
            return body;
          });
        })
        .then(function (begin) {
          var o = begin.options;
          var publicKey = Object.assign({}, o, {
            challenge: decode(o.challenge),
            allowCredentials: (o.allowCredentials || []).map(function (c) {
              return Object.assign({}, c, { id: decode(c.id) });
            }),
          });
          return navigator.credentials.get({ publicKey: publicKey }).then(function (cred) {
            var r = cred.response;
            var set = function (name, value) { finish.elements.namedItem(name).value = value; };
            set('challengeId', begin.challengeId);
            set('credentialId', encode(cred.rawId));
            set('clientDataJSON', encode(r.clientDataJSON));
            set('authenticatorData', encode(r.authenticatorData));
            set('signature', encode(r.signature));
            set('userHandle', r.userHandle ? encode(r.userHandle) : '');
            finish.submit();
          });
        })
        .catch(function (err) {
          button.disabled = false;
          show(status, err && err.name === 'NotAllowedError'
            ? 'The passkey sign-in was cancelled or timed out. Try again.'
            : 'Passkey sign-in failed: ' + (err && err.message ? err.message : String(err)));
        });
    });
  });
})();
`;
