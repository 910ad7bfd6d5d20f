/**
 * The page's one script of its own, served as a file (`svc-docs.js`) rather than inline so the
 * page's Content-Security-Policy can allow scripts from the server only. It reads the document
 * URL from the page (`data-document-url` on the mount point) and starts Swagger UI:
 * - deep links (`#/tag/operation`), "Try it out" open on every operation;
 * - `persistAuthorization`: a bearer token entered once under "Authorize" is kept (local storage,
 *   key `authorized`, Swagger UI's own format) across reloads;
 * - the document may be gated (`requireAuth`): the kept bearer token is sent when the document
 *   is fetched too, and when the server refuses the document (401, 403) the page asks for a token
 *   above Swagger UI's error, keeps it where "Authorize" keeps its own, and reloads. One token,
 *   entered once, so serves the document and every "Try it out";
 * - nothing leaves the server: no validator badge (`validatorUrl: null`), no `?url=` or
 *   `?configUrl=` from the address bar (`queryConfigEnabled: false`), and Swagger UI has no
 *   telemetry.
 * Plain ES2017 for any browser Swagger UI supports; no framework, no inline style (the CSP).
 */
export const INIT_SCRIPT = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  var documentUrl = root.getAttribute('data-document-url');
  var documentHref = new URL(documentUrl, location.href).href;
  var STORE = 'authorized';

  function kept() {
    try {
      var parsed = JSON.parse(localStorage.getItem(STORE) || '{}');
      return parsed && typeof parsed === 'object' ? parsed : {};
    } catch (e) {
      return {};
    }
  }

  function keptBearerToken() {
    var authorized = kept();
    for (var name in authorized) {
      var entry = authorized[name];
      var scheme = entry && entry.schema;
      if (scheme && scheme.type === 'http' && /^bearer$/i.test(scheme.scheme) && entry.value) {
        return String(entry.value);
      }
    }
    return null;
  }

  function keepBearerToken(token) {
    var authorized = kept();
    authorized.bearerAuth = {
      name: 'bearerAuth',
      schema: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      value: token,
    };
    localStorage.setItem(STORE, JSON.stringify(authorized));
  }

  function askForToken(status) {
    if (document.getElementById('svc-token-form')) return;
    var form = document.createElement('form');
    form.id = 'svc-token-form';
    form.className = 'wrapper';
    var label = document.createElement('label');
    label.htmlFor = 'svc-token';
    label.textContent =
      status === 403
        ? 'This token may not read the API document. Another access token: '
        : keptBearerToken()
          ? 'The access token was refused (expired, or not a token of this server). Access token: '
          : 'This server shows its API document to signed-in callers only. Access token: ';
    var input = document.createElement('input');
    input.id = 'svc-token';
    input.type = 'password';
    input.autocomplete = 'off';
    input.required = true;
    var button = document.createElement('button');
    button.type = 'submit';
    button.className = 'btn authorize';
    button.textContent = 'Use this token';
    form.appendChild(label);
    form.appendChild(input);
    form.appendChild(button);
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var token = input.value.trim();
      if (!token) return;
      keepBearerToken(token);
      location.reload();
    });
    root.parentNode.insertBefore(form, root);
  }

  SwaggerUIBundle({
    domNode: root,
    url: documentUrl,
    deepLinking: true,
    tryItOutEnabled: true,
    persistAuthorization: true,
    displayRequestDuration: true,
    validatorUrl: null,
    queryConfigEnabled: false,
    requestInterceptor: function (request) {
      if (request.loadSpec && !request.headers.Authorization) {
        var token = keptBearerToken();
        if (token) request.headers.Authorization = 'Bearer ' + token;
      }
      return request;
    },
    responseInterceptor: function (response) {
      if (response.url === documentHref && (response.status === 401 || response.status === 403)) {
        askForToken(response.status);
      }
      return response;
    },
  });
})();
`;
