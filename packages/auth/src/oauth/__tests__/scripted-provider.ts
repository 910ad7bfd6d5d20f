/**
 * A scripted OpenID provider on 127.0.0.1 (node:http) for the OAuth tests: discovery, JWKS, token
 * and userinfo endpoints; the test plays the browser and registers, per authorization URL, what
 * the provider will answer (a good ID token, a forged or expired one, a refused code...).
 */
import { createHash, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const SCRIPTED_CLIENT = { clientId: 'flow-client', clientSecret: 'flow-secret' };
const CLIENT = SCRIPTED_CLIENT;

export interface Grant {
  /** Claims of the ID token (merged over the defaults), or null for none. */
  idToken?: Record<string, unknown> | null;
  /** Sign with another key than the published one. */
  forge?: boolean;
  userinfo?: Record<string, unknown>;
  /** The token endpoint answers this status instead. */
  tokenStatus?: number;
}

/** The scripted provider: discovery, JWKS, token, userinfo; codes registered by the test. */
export function scriptedProvider() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rogue = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const grants = new Map<
    string,
    Grant & { challenge: string; nonce?: string; redirectUri: string; now: number }
  >();
  const seen: { tokenRequests: URLSearchParams[]; authorization: (string | undefined)[] } = {
    tokenRequests: [],
    authorization: [],
  };
  let discovery: Record<string, unknown> | 'down' = {};
  let issuer = '';
  const jwt = (claims: Record<string, unknown>, key: KeyObject) => {
    const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${enc({ alg: 'RS256', kid: 'k1', typ: 'JWT' })}.${enc(claims)}`;
    return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
  };
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      if (discovery === 'down') return send(500, {});
      return send(200, discovery);
    }
    if (url.pathname === '/jwks')
      return send(200, {
        keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' }],
      });
    if (url.pathname === '/userinfo') {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const grant = grants.get(token);
      return grant ? send(200, grant.userinfo ?? {}) : send(401, { error: 'invalid_token' });
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        const form = new URLSearchParams(raw);
        seen.tokenRequests.push(form);
        seen.authorization.push(req.headers.authorization);
        const code = form.get('code') ?? '';
        const grant = grants.get(code);
        if (!grant) return send(400, { error: 'invalid_grant' });
        if (grant.tokenStatus) return send(grant.tokenStatus, { error: 'invalid_grant' });
        const verifier = form.get('code_verifier') ?? '';
        if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge)
          return send(400, { error: 'invalid_grant', error_description: 'PKCE' });
        if (form.get('redirect_uri') !== grant.redirectUri)
          return send(400, { error: 'invalid_grant' });
        const iat = Math.floor(grant.now / 1000);
        const body: Record<string, unknown> = { access_token: code, token_type: 'Bearer' };
        if (grant.idToken !== null)
          body.id_token = jwt(
            {
              iss: issuer,
              aud: CLIENT.clientId,
              sub: 'subject-1',
              iat,
              exp: iat + 300,
              nonce: grant.nonce,
              ...grant.idToken,
            },
            grant.forge ? rogue : privateKey,
          );
        return send(200, body);
      });
      return;
    }
    send(404, {});
  });
  return {
    server,
    seen,
    get issuer() {
      return issuer;
    },
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      this.reset();
    },
    reset(over: Record<string, unknown> = {}) {
      discovery = {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/userinfo`,
        jwks_uri: `${issuer}/jwks`,
        ...over,
      };
    },
    down() {
      discovery = 'down';
    },
    /** The provider's answer to an authorization URL: a code, as a browser would bring back. */
    grant(authorizeUrl: string, now: number, g: Grant = {}): { state: string; code: string } {
      const q = new URL(authorizeUrl).searchParams;
      const code = `code-${Math.random().toString(36).slice(2)}`;
      grants.set(code, {
        userinfo: { sub: 'subject-1', email: 'flow@example.com', email_verified: true },
        ...g,
        challenge: q.get('code_challenge') as string,
        ...(q.get('nonce') ? { nonce: q.get('nonce') as string } : {}),
        redirectUri: q.get('redirect_uri') as string,
        now,
      });
      return { state: q.get('state') as string, code };
    },
  };
}
