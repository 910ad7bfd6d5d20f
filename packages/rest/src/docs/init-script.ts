/**
 * The page's one script of its own, served as a file (`svc-docs.js`) rather than inline so the
 * page's Content-Security-Policy can allow scripts from the server only. It reads the document
 * URL from the page (`data-document-url` on the mount point) and starts Swagger UI:
 * - deep links (`#/tag/operation`), "Try it out" open on every operation;
 * - `persistAuthorization`: a bearer token entered once under "Authorize" is kept (local storage)
 *   across reloads;
 * - nothing leaves the server: no validator badge (`validatorUrl: null`), no `?url=` or
 *   `?configUrl=` from the address bar (`queryConfigEnabled: false`), and Swagger UI has no
 *   telemetry.
 */
export const INIT_SCRIPT = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  SwaggerUIBundle({
    domNode: root,
    url: root.getAttribute('data-document-url'),
    deepLinking: true,
    tryItOutEnabled: true,
    persistAuthorization: true,
    displayRequestDuration: true,
    validatorUrl: null,
    queryConfigEnabled: false,
  });
})();
`;
