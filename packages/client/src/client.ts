/**
 * client/client: `createClient` and its query methods, over the web platform's `fetch` (Node,
 * browsers, Deno, Bun, edge runtimes). Each query is one `POST /query` (docs/http.md); the
 * methods that decode ask `describe` once per query text and schema version: every answer
 * names the server's schema version (`X-Svc-Schema-Version`), and a query whose description
 * was made for another one is described again before its result is decoded. The `...JSON`
 * methods answer the server's JSON text.
 */
import { decode, encode, type DecodeOptions, type QueryDescription } from './codec';
import { NoDataError, ProtocolError, SvcError } from './errors';
import { arrayElementTexts, parseJson } from './json';
import {
  runBatch,
  runTransaction,
  type BatchStatement,
  type RetryOptions,
  type TransactionOptions,
} from './transaction';
import { createTransport, type Transport } from './transport';
import { createAuth, type AuthClient, type AuthOptions } from './auth/auth';

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
  /** `client.auth`: where its session is kept and how it is refreshed (auth/auth.ts). */
  readonly auth?: AuthOptions;
}

/** Variables by name (`$name` in the query). */
export type Variables = Readonly<Record<string, unknown>>;

/** The query methods, on a client and (later) inside a transaction. */
export interface Executor {
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
}

export interface Client extends Executor {
  /** Sign-up, sign-in, the session and its events; queries carry the session's token (unless `token` or `serviceKey` is given). */
  readonly auth: AuthClient;
  /** A client that sends these globals too (over this client's). */
  withGlobals(globals: Readonly<Record<string, unknown>>): Client;
  /** Runs `fn` in one transaction, again on a serialization failure or deadlock (transaction.ts). */
  transaction<T>(fn: (tx: Executor) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Several statements in one transaction and one round trip: each one's result, decoded. */
  batch(statements: readonly BatchStatement[], options?: RetryOptions): Promise<unknown[][]>;
}

/** Query descriptions a client keeps (by query text). */
const DESCRIPTIONS_KEPT = 500;

export type RequestedCardinality = 'many' | 'atMostOne' | 'one';

/** What the query methods share: where queries go, and what is known of their types. */
export interface ExecutorContext {
  readonly transport: Transport;
  /** Headers sent with every `/query` request of these methods (a transaction's id). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly globals?: Readonly<Record<string, unknown>>;
  readonly decodeOptions: DecodeOptions;
  /** By query text: the description and the schema version it was made under (null: unknown). */
  readonly descriptions: Map<string, { description: QueryDescription; version: string | null }>;
}

export function createClient(options: ClientOptions): Client {
  const fixed = options.token ?? options.serviceKey;
  const transport = createTransport({
    url: options.url,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    credential: () => fixed ?? session.accessToken(),
  });
  const session = createAuth(transport, options.auth);
  return clientOver(session.auth, {
    transport,
    ...(options.globals ? { globals: options.globals } : {}),
    decodeOptions: options.int64 ? { int64: options.int64 } : {},
    descriptions: new Map(),
  });
}

/** A client over a context; `withGlobals` shares its transport and known descriptions. */
function clientOver(auth: AuthClient, context: ExecutorContext): Client {
  const bound = {
    ...context,
    executor: (headers: Record<string, string>) => executor({ ...context, headers }),
  };
  return {
    ...executor(context),
    auth,
    withGlobals: (globals) =>
      clientOver(auth, { ...context, globals: { ...context.globals, ...globals } }),
    transaction: (fn, options) => runTransaction(bound, fn, options),
    batch: (statements, options) => runBatch(bound, statements, options),
  };
}

/** The query methods over one context: each query is one `POST /query`. */
export function executor(context: ExecutorContext): Executor {
  const { transport, descriptions, decodeOptions, globals } = context;

  async function post(body: Record<string, unknown>) {
    const { text, headers } = await transport.request('/query', {
      body,
      ...(context.headers ? { headers: context.headers } : {}),
    });
    return { text, version: headers.get('x-svc-schema-version') };
  }

  function requestBody(
    query: string,
    variables: Variables | undefined,
    cardinality: RequestedCardinality,
  ) {
    return {
      query,
      ...(variables && Object.keys(variables).length > 0 ? { variables: encode(variables) } : {}),
      ...(globals && Object.keys(globals).length > 0 ? { globals: encode(globals) } : {}),
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
    descriptions.delete(query);
    descriptions.set(query, entry);
    // Bounded, the oldest described first out: a client that builds query texts on the fly
    // must not grow without end.
    if (descriptions.size > DESCRIPTIONS_KEPT) {
      const oldest = descriptions.keys().next();
      if (!oldest.done) descriptions.delete(oldest.value);
    }
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
      if (cause instanceof SvcError) throw cause;
      throw new ProtocolError('the answer does not fit the description of the query', { cause });
    }
  }
  const noData = () =>
    new NoDataError('the query returned no element, but one was required', {
      hint: 'use querySingle when the result may be empty',
    });

  return {
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
  };
}
