/**
 * client/client: `createClient` and its query methods, over the web platform's `fetch` (Node,
 * browsers, Deno, Bun, edge runtimes). Each query is one `POST /query` (docs/http.md); the
 * methods that decode ask `describe` once per query text and schema version: every answer
 * names the server's schema version (`X-Svc-Schema-Version`), and a query whose description
 * was made for another one is described again before its result is decoded. The `...JSON`
 * methods answer the server's JSON text.
 */
import { decode, encode, type DecodeOptions, type QueryDescription } from './codec';
import { errorFromEnvelope, NetworkError, NoDataError, ProtocolError } from './errors';
import { arrayElementTexts, parseJson } from './json';

export interface ClientOptions {
  /** The server's base URL (`http://127.0.0.1:5656`). */
  readonly url: string;
  /** A user's access token, sent as `Authorization: Bearer`. */
  readonly token?: string;
  /** The service key (runs without access policies): for servers, never for browsers. */
  readonly serviceKey?: string;
  /** @default globalThis.fetch */
  readonly fetch?: typeof fetch;
  /** Values of the schema's globals sent with every query. */
  readonly globals?: Readonly<Record<string, unknown>>;
  /** How int64 results are decoded (codec). @default 'number' */
  readonly int64?: DecodeOptions['int64'];
}

/** Variables by name (`$name` in the query). */
export type Variables = Readonly<Record<string, unknown>>;

export interface Client {
  /** Every element of the result, decoded. */
  query<T = unknown>(query: string, variables?: Variables): Promise<T[]>;
  /** The one element, or null; refused before running when the query may return more. */
  querySingle<T = unknown>(query: string, variables?: Variables): Promise<T | null>;
  /** The one element; refused before running when it may be more, NoDataError when none. */
  queryRequiredSingle<T = unknown>(query: string, variables?: Variables): Promise<T>;
  /** The result as the server's JSON text (an array). */
  queryJSON(query: string, variables?: Variables): Promise<string>;
  /** The one element's JSON text, or `null`. */
  querySingleJSON(query: string, variables?: Variables): Promise<string>;
  /** The one element's JSON text; NoDataError when none. */
  queryRequiredSingleJSON(query: string, variables?: Variables): Promise<string>;
  /** Runs a statement for its effect. */
  execute(query: string, variables?: Variables): Promise<void>;
  /** The types of a query's variables and result, nothing run. */
  describe(query: string): Promise<QueryDescription>;
  /** A client that sends these globals too (over this client's). */
  withGlobals(globals: Readonly<Record<string, unknown>>): Client;
}

type RequestedCardinality = 'many' | 'atMostOne' | 'one';

export function createClient(options: ClientOptions): Client {
  const url = `${options.url.replace(/\/+$/, '')}/query`;
  const fetcher = options.fetch ?? globalThis.fetch;
  if (typeof fetcher !== 'function')
    throw new TypeError('no fetch: pass `fetch` to createClient on this runtime');
  const credential = options.token ?? options.serviceKey;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (credential) headers.authorization = `Bearer ${credential}`;
  /** By query text: the description and the schema version it was made under (null: unknown). */
  const descriptions = new Map<string, { description: QueryDescription; version: string | null }>();
  const decodeOptions: DecodeOptions = options.int64 ? { int64: options.int64 } : {};

  /** The answer's text and the schema version it names. */
  async function post(
    body: Record<string, unknown>,
  ): Promise<{ text: string; version: string | null }> {
    let response: Response;
    try {
      response = await fetcher(url, { method: 'POST', headers, body: JSON.stringify(body) });
    } catch (cause) {
      throw new NetworkError(
        `the request to ${url} failed: ${(cause as Error)?.message ?? cause}`,
        {
          cause,
        },
      );
    }
    let text: string;
    try {
      text = await response.text();
    } catch (cause) {
      throw new NetworkError(`the answer from ${url} did not arrive whole`, { cause });
    }
    if (!response.ok) {
      let envelope: unknown;
      try {
        envelope = JSON.parse(text);
      } catch {
        throw new ProtocolError(
          `the server answered ${response.status} with a body that is not JSON`,
          {
            status: response.status,
          },
        );
      }
      throw errorFromEnvelope(response.status, envelope);
    }
    return { text, version: response.headers.get('x-svc-schema-version') };
  }

  function requestBody(
    query: string,
    variables: Variables | undefined,
    cardinality: RequestedCardinality,
  ) {
    return {
      query,
      ...(variables && Object.keys(variables).length > 0 ? { variables: encode(variables) } : {}),
      ...(options.globals && Object.keys(options.globals).length > 0
        ? { globals: encode(options.globals) }
        : {}),
      cardinality,
    };
  }

  /** The JSON text of `data` (checked to be an array) and the schema version it was run under. */
  async function answer(
    query: string,
    variables: Variables | undefined,
    cardinality: RequestedCardinality,
  ) {
    const { text, version } = await post(requestBody(query, variables, cardinality));
    const start = text.indexOf('[');
    if (!text.startsWith('{"data":') || start < 0 || !text.endsWith('}'))
      throw new ProtocolError('the server answered 200 without `{"data": [...]}`');
    return { json: text.slice(start, -1), version };
  }

  async function run(
    query: string,
    variables: Variables | undefined,
    cardinality: RequestedCardinality,
  ) {
    return (await answer(query, variables, cardinality)).json;
  }

  async function describe(query: string, fresh = false) {
    const known = descriptions.get(query);
    if (known && !fresh) return known;
    const { text, version } = await post({ query, describe: true });
    let body: { describe?: QueryDescription };
    try {
      body = JSON.parse(text);
    } catch {
      throw new ProtocolError('the server answered a describe with a body that is not JSON');
    }
    if (!body.describe)
      throw new ProtocolError('the server answered a describe without `describe`');
    const entry = { description: body.describe, version };
    descriptions.set(query, entry);
    return entry;
  }

  async function decoded(
    query: string,
    variables: Variables | undefined,
    cardinality: RequestedCardinality,
  ) {
    let [described, ran] = await Promise.all([
      describe(query),
      answer(query, variables, cardinality),
    ]);
    // The schema moved since the query was described: its types may have too.
    if (ran.version !== null && described.version !== ran.version)
      described = await describe(query, true);
    try {
      const data = parseJson(ran.json) as unknown[];
      return data.map((element) => decode(described.description.output, element, decodeOptions));
    } catch (cause) {
      throw new ProtocolError('the answer does not fit the description of the query', { cause });
    }
  }
  const noData = () =>
    new NoDataError('the query returned no element, but one was required', {
      hint: 'use querySingle when the result may be empty',
    });

  const client: Client = {
    query: async <T>(query: string, variables?: Variables) =>
      (await decoded(query, variables, 'many')) as T[],
    querySingle: async <T>(query: string, variables?: Variables) =>
      ((await decoded(query, variables, 'atMostOne'))[0] ?? null) as T | null,
    queryRequiredSingle: async <T>(query: string, variables?: Variables) => {
      const [first] = await decoded(query, variables, 'one');
      if (first === undefined) throw noData();
      return first as T;
    },
    queryJSON: (query, variables) => run(query, variables, 'many'),
    querySingleJSON: async (query, variables) =>
      arrayElementTexts(await run(query, variables, 'atMostOne'))[0] ?? 'null',
    queryRequiredSingleJSON: async (query, variables) => {
      const [first] = arrayElementTexts(await run(query, variables, 'one'));
      if (first === undefined) throw noData();
      return first;
    },
    execute: async (query, variables) => {
      await run(query, variables, 'many');
    },
    describe: async (query) => (await describe(query)).description,
    withGlobals: (globals) =>
      createClient({ ...options, globals: { ...options.globals, ...globals } }),
  };
  return client;
}
