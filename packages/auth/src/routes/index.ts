/**
 * Every `/auth/*` route, each declared once with `defineRoute` beside its feature, in one list.
 * The router (`../http/handler.ts`), the lockdown table (`AUTH_ROUTES`, `./table.ts`), the
 * captcha gates (`CAPTCHA_GATED_ROUTES`) and the OpenAPI fragment (`../openapi`) are derived
 * from it. The order is the OpenAPI document's order of paths and tags, and the order of `Allow`
 * on a 405: append a new route to its feature's list.
 */
import { ACCOUNT_ROUTES } from '../account/routes';
import { GUEST_ROUTES } from '../guest/routes';
import { MFA_ROUTES } from '../mfa/routes';
import { OAUTH_ROUTES } from '../oauth/routes';
import { MAGIC_CODE_ROUTES, MAGIC_LINK_ROUTES } from '../passwordless/routes';
import { SESSION_ROUTES } from '../session/routes';
import { WEBAUTHN_ROUTES } from '../webauthn/routes';
import type { AuthRouteDeclaration } from './define';

export const AUTH_ROUTE_DECLARATIONS: readonly AuthRouteDeclaration[] = Object.freeze([
  ...ACCOUNT_ROUTES,
  ...MFA_ROUTES,
  ...MAGIC_LINK_ROUTES,
  ...MAGIC_CODE_ROUTES,
  ...WEBAUTHN_ROUTES,
  ...GUEST_ROUTES,
  ...SESSION_ROUTES,
  ...OAUTH_ROUTES,
]);

export { defineRoute, routeKey, type AuthRouteDeclaration } from './define';
