import { commonError } from '@svc/core';
import { unstorableText } from '../account/text';
import type { AuthRequest } from './request';

/** 1 MiB, as the server's own `bodyLimit` default (docs/http.md, "Configuration"). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Reads a JSON object body. Absent body → `{}`; over the limit → 413; not JSON or not an
 * object → 400; a body of another media type → 415.
 */
export async function readJsonObject(
  request: AuthRequest,
  limit: number,
): Promise<Record<string, unknown>> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) {
    throw commonError('PAYLOAD_TOO_LARGE', `request body exceeds ${limit} bytes`);
  }
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > limit)
    throw commonError('PAYLOAD_TOO_LARGE', `request body exceeds ${limit} bytes`);
  if (bytes.byteLength === 0) return {};
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw commonError(
      'UNSUPPORTED_MEDIA_TYPE',
      'request body must be JSON (Content-Type: application/json)',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw commonError('VALIDATION_ERROR', 'request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw commonError('VALIDATION_ERROR', 'request body must be a JSON object');
  }
  // No field of an auth request may hold U+0000 or a lone surrogate (see account/text.ts).
  const problem = unstorableText(value);
  if (problem) throw commonError('VALIDATION_ERROR', `request body must not contain ${problem}`);
  return value as Record<string, unknown>;
}

/**
 * A field HTTP requires where the operation would not refuse its absence (tokens, the email of a
 * reset or resend request): a non-empty string; the message names the field as sent.
 */
export function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.length === 0) {
    throw commonError('VALIDATION_ERROR', `"${field}" is required and must be a non-empty string`);
  }
  return value;
}

/** The most a provider's form_post callback body may hold: 64 KiB. */
const FORM_LIMIT = 64 * 1024;

/**
 * The body of a provider's form_post callback: `application/x-www-form-urlencoded`, at most
 * 64 KiB; or JSON, which is how the Node adapter re-sends a form an earlier body parser
 * (`express.urlencoded()`) already consumed.
 */
export async function readForm(request: AuthRequest): Promise<URLSearchParams> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') {
    const body = await readJsonObject(request, FORM_LIMIT);
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') form.set(k, v);
    return form;
  }
  if (type !== 'application/x-www-form-urlencoded')
    throw commonError(
      'UNSUPPORTED_MEDIA_TYPE',
      'the callback body must be application/x-www-form-urlencoded',
    );
  if (Number(request.headers.get('content-length') ?? 0) > FORM_LIMIT)
    throw commonError('PAYLOAD_TOO_LARGE', 'the callback body is too large');
  const text = await request.text();
  if (Buffer.byteLength(text) > FORM_LIMIT)
    throw commonError('PAYLOAD_TOO_LARGE', 'the callback body is too large');
  return new URLSearchParams(text);
}
