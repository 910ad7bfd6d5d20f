/**
 * Checks an answer of a server under test against the OpenAPI document that server serves at
 * that moment (`GET /api/openapi.json`, so a migration in the test is followed): for suites whose
 * every answer must validate (issue 13). Validators are kept per document text.
 */
import type { SvcServer } from '../src';
import { call } from './helpers';
import { type OpenApiAnswer, type OpenApiValidator, openApiValidator } from '@svc/test-support';

const validators = new Map<string, OpenApiValidator>();

/**
 * Throws unless `answer` (a request to `/api/...` of `server`) is what the served document says.
 * `documentToken`: the bearer token to fetch the document with (needed under requireAuth; the
 * service key does).
 */
export async function checkServedAnswer(
  server: SvcServer,
  answer: OpenApiAnswer,
  documentToken?: string,
): Promise<void> {
  const res = await call(server, '/api/openapi.json', {
    headers: documentToken ? { authorization: `Bearer ${documentToken}` } : {},
  });
  const text = await res.text();
  if (res.status !== 200) {
    throw new Error(
      `cannot check ${answer.method} ${answer.path}: the document answers ${res.status} ${text}`,
    );
  }
  let validator = validators.get(text);
  if (!validator) {
    if (validators.size >= 32) validators.clear();
    validator = openApiValidator(JSON.parse(text));
    validators.set(text, validator);
  }
  validator.check(answer);
}
