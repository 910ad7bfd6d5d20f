/**
 * Outbound HTTP to identity providers: JSON only, bounded in time (10 s) and size (1 MiB), no
 * redirects followed. A failure is an `OAuthProviderError` (never the provider's body in a
 * response to the client: it is logged by the caller at most).
 */

export const PROVIDER_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;

/** The provider did not answer as it must (unreachable, non-2xx, not JSON, invalid document). */
export class OAuthProviderError extends Error {
  override readonly name = 'OAuthProviderError';
  /** The provider's HTTP status, when it answered one. */
  readonly status: number | undefined;
  constructor(message: string, status?: number) {
    super(message);
    this.status = status;
  }
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** GET or POST, answered with a JSON object (or array when `array`). */
export async function fetchJson(
  fetchImpl: FetchLike,
  url: string,
  init: RequestInit = {},
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetchImpl(url, {
      ...init,
      redirect: 'error',
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      headers: { Accept: 'application/json', ...(init.headers as Record<string, string>) },
    });
  } catch (err) {
    throw new OAuthProviderError(`the provider could not be reached (${describe(err)})`);
  }
  const text = await readBounded(res);
  if (!res.ok) throw new OAuthProviderError(`the provider answered HTTP ${res.status}`, res.status);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new OAuthProviderError('the provider answered something that is not JSON');
  }
}

async function readBounded(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) {
    await res.body?.cancel();
    throw new OAuthProviderError('the provider answered a body that is too large');
  }
  const buf = Buffer.from(await res.arrayBuffer());
  if (buf.length > MAX_BODY_BYTES)
    throw new OAuthProviderError('the provider answered a body that is too large');
  return buf.toString('utf8');
}

function describe(err: unknown): string {
  const e = err as { name?: string; cause?: { code?: string } };
  return e?.cause?.code ?? e?.name ?? 'error';
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
