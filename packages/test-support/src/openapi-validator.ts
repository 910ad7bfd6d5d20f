/**
 * Checks HTTP exchanges against an OpenAPI 3.1 document with Ajv (JSON Schema 2020-12, formats):
 * the one validator of @svc/auth's document and of the document svc serves at
 * `/api/openapi.json`. Any mismatch throws one readable error naming the request, the status and
 * what differs.
 *
 * - `check(answer)`: the path (concrete, or a template of the document) is matched to the
 *   document's templates, literal ones first; the status must be documented for the operation
 *   (exactly, as `2XX`, or `default`); the media type must be documented and the body must
 *   validate against its schema; a response documented without content must have no body. With
 *   the answer's headers: every header the response requires (Location, Retry-After) must be
 *   there, and a Set-Cookie must be documented. HEAD is checked as the GET of the same path,
 *   with no body. A request the document does not describe (no path matches: 400 or 404, and
 *   401 when the `/api` routes are gated; no such method on a documented path: 405) must be
 *   refused in the document's `Error` envelope: that is the only answer the document allows it.
 * - `checkRequest`, `checkParameters`: what the server accepted, the document must accept too.
 * - `checkSchema(name, value)`: one component schema; `compileAll()`: every schema compiles in
 *   strict mode (unknown keywords, broken `$ref`s).
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export interface OpenApiAnswer {
  readonly method: string;
  /** The request path (or a path template of the document), with or without the query string. */
  readonly path: string;
  readonly status: number;
  /** The Content-Type header; when absent, read from `headers` (null: none). */
  readonly contentType?: string | null;
  /** The response headers: when given, required and Set-Cookie headers are checked too. */
  readonly headers?: Headers;
  /** The body: parsed JSON, or the text (parsed here when the media type is JSON), or null. */
  readonly body: unknown;
}

export interface OpenApiValidator {
  /** Throws a readable error unless `answer` is what the document says. */
  check(answer: OpenApiAnswer): void;
  /** Throws unless `body` is a request body the document accepts for `method template`. */
  checkRequest(method: string, template: string, body: unknown, mediaType?: string): void;
  /**
   * Throws unless `values` (path and query parameters by name) are ones the document accepts for
   * `method template`: every required parameter present, each value valid, none unknown.
   */
  checkParameters(method: string, template: string, values: Readonly<Record<string, string>>): void;
  /** Throws a readable error unless `value` is valid for the component schema `name`. */
  checkSchema(name: string, value: unknown): void;
  /** Compiles every schema of the document (strict mode): unknown keywords, broken $refs. */
  compileAll(): void;
}

// biome-ignore lint/suspicious/noExplicitAny: walking an OpenAPI document
type Any = any;

/** Keys of an OpenAPI document (and of OpenAPI schemas) that are not JSON Schema keywords. */
const OPENAPI_KEYWORDS = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
  'externalDocs',
  'example',
  'discriminator',
  'xml',
];

const ROOT = 'openapi-document';

export function openApiValidator(document: Any): OpenApiValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addVocabulary(OPENAPI_KEYWORDS);
  ajv.addSchema(document, ROOT);
  const paths: Record<string, Any> = document.paths ?? {};
  /** Whether the `/api` routes need credentials (requireAuth): some operation there has security. */
  const apiGated = Object.entries(paths).some(
    ([template, item]) =>
      template.startsWith('/api/') &&
      Object.values(item as Any).some(
        (op: Any) => Array.isArray(op?.security) && op.security.length > 0,
      ),
  );
  const templates = Object.keys(paths).map((template) => ({
    template,
    segments: template.split('/'),
    literal: !template.includes('{'),
  }));
  // Literal paths first (`/api/openapi.json` before a `/api/{...}` template).
  templates.sort((a, b) => Number(b.literal) - Number(a.literal));
  const compiled = new Map<string, ValidateFunction>();

  const validatorAt = (pointer: string): ValidateFunction => {
    let v = compiled.get(pointer);
    if (!v) {
      const fragment = pointer.split('/').map(encodeURIComponent).join('/');
      v = ajv.compile({ $ref: `${ROOT}#${fragment}` });
      compiled.set(pointer, v);
    }
    return v;
  };

  const resolve = (node: Any, pointer: string): [Any, string] => {
    let at = node;
    let where = pointer;
    for (let i = 0; at?.$ref !== undefined && i < 10; i++) {
      where = (at.$ref as string).slice(1);
      at = pointerGet(document, where);
    }
    return [at, where];
  };

  const operationOf = (method: string, template: string): [Any, string] => {
    const op = paths[template]?.[method.toLowerCase()];
    if (!op) throw new Error(`${method} ${template} is not in the document`);
    return [op, `/paths/${escapePointer(template)}/${method.toLowerCase()}`];
  };

  /** Validates `value` at a schema inside the document; a readable problem, or null. */
  const problemOf = (value: unknown, pointer: string): string | null => {
    const validate = validatorAt(pointer);
    return validate(value) ? null : errorsText(validate);
  };

  return {
    checkSchema(name, value) {
      if (document.components?.schemas?.[name] === undefined) {
        throw new Error(`no component schema ${name}`);
      }
      const problem = problemOf(value, `/components/schemas/${escapePointer(name)}`);
      if (problem) throw new Error(`${name}: ${problem}\nvalue: ${preview(value)}`);
    },

    check(answer) {
      const path = answer.path.split('?')[0] as string;
      const what = `${answer.method} ${answer.path} → ${answer.status}`;
      const fail = (message: string): never => {
        throw new Error(`${what}: ${message}`);
      };
      /** An undocumented request: only a refusal in the envelope is right. */
      const refused = (statuses: readonly number[], why: string): void => {
        if (!statuses.includes(answer.status)) {
          fail(`${why}, so only ${statuses.join(' or ')} in the Error envelope is allowed`);
        }
        const validate = validatorAt('/components/schemas/Error');
        const body = typeof answer.body === 'string' ? safeParse(answer.body) : answer.body;
        if (!validate(body))
          fail(`${why}; the refusal is not in the Error envelope: ${preview(answer.body)}`);
      };
      const segments = path.split('/').map((s) => safeDecode(s));
      const match = templates.find(
        (t) =>
          t.segments.length === segments.length &&
          t.segments.every((s, i) =>
            s.startsWith('{') && s.endsWith('}') ? segments[i] !== '' : s === segments[i],
          ),
      );
      // Under requireAuth the gate answers before routing: an unknown path without a token is 401.
      if (!match)
        return refused(apiGated ? [400, 401, 404] : [400, 404], 'no path of the document matches');
      const head = answer.method.toUpperCase() === 'HEAD';
      const method = head ? 'get' : answer.method.toLowerCase();
      const operation = paths[match.template][method];
      if (!operation) return refused([405], `${match.template} documents no ${answer.method}`);
      const responses = operation.responses ?? {};
      const status = String(answer.status);
      const key =
        status in responses
          ? status
          : `${status[0]}XX` in responses
            ? `${status[0]}XX`
            : 'default' in responses
              ? 'default'
              : undefined;
      if (key === undefined) {
        return fail(
          `status ${status} is not documented for ${answer.method} ${match.template} (documented: ${Object.keys(responses).join(', ')}); body: ${preview(answer.body)}`,
        );
      }
      const base = `/paths/${escapePointer(match.template)}/${method}/responses/${escapePointer(key)}`;
      const [response, at] = resolve(responses[key], base);
      if (answer.headers) {
        const documented = (response?.headers ?? {}) as Record<string, Any>;
        for (const [name, header] of Object.entries(documented)) {
          const [h] = resolve(header, '');
          if (h?.required && !answer.headers.has(name))
            fail(`the documented header ${name} is missing`);
        }
        const names = Object.keys(documented).map((n) => n.toLowerCase());
        if (answer.headers.has('set-cookie') && !names.includes('set-cookie'))
          fail('a Set-Cookie the document does not mention');
      }
      const content = response?.content as Record<string, Any> | undefined;
      if (!content || Object.keys(content).length === 0 || head) {
        if (answer.body !== null && answer.body !== undefined && answer.body !== '') {
          fail(`the documented response has no body, got ${preview(answer.body)}`);
        }
        return;
      }
      const contentType = answer.contentType ?? answer.headers?.get('content-type') ?? null;
      const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (!(mediaType in content)) {
        return fail(
          `content type "${contentType}" is not documented (documented: ${Object.keys(content).join(', ')})`,
        );
      }
      let body = answer.body;
      if (typeof body === 'string' && mediaType.endsWith('json')) {
        try {
          body = JSON.parse(body);
        } catch {
          return fail(`the body is not JSON: ${preview(body)}`);
        }
      }
      if (content[mediaType].schema === undefined) return;
      const problem = problemOf(body, `${at}/content/${escapePointer(mediaType)}/schema`);
      if (problem)
        fail(`the body does not match the documented schema:\n${problem}\nbody: ${preview(body)}`);
    },

    checkRequest(method, template, body, mediaType = 'application/json') {
      const [op, at] = operationOf(method, template);
      const [requestBody, bodyAt] = resolve(op.requestBody, `${at}/requestBody`);
      if (!requestBody) {
        if (body !== undefined)
          throw new Error(`${method} ${template}: the document takes no body`);
        return;
      }
      if (body === undefined) {
        if (requestBody.required)
          throw new Error(`${method} ${template}: the document requires a body`);
        return;
      }
      if (requestBody.content?.[mediaType] === undefined)
        throw new Error(`${method} ${template}: the document takes no ${mediaType} body`);
      const problem = problemOf(body, `${bodyAt}/content/${escapePointer(mediaType)}/schema`);
      if (problem)
        throw new Error(
          `${method} ${template}: the document refuses a body the server accepted:\n${problem}`,
        );
    },

    checkParameters(method, template, values) {
      const [op, at] = operationOf(method, template);
      const params = (op.parameters ?? []) as Any[];
      for (const [i, given] of params.entries()) {
        const [p, pAt] = resolve(given, `${at}/parameters/${i}`);
        const value = values[p.name as string];
        if (value === undefined) {
          if (p.required)
            throw new Error(`${method} ${template}: the required parameter ${p.name} is missing`);
          continue;
        }
        const problem = problemOf(value, `${pAt}/schema`);
        if (problem)
          throw new Error(
            `${method} ${template}: the document refuses the ${p.name} the server accepted:\n${problem}`,
          );
      }
      for (const name of Object.keys(values))
        if (!params.some((p) => resolve(p, '')[0]?.name === name))
          throw new Error(`${method} ${template}: the parameter ${name} is not documented`);
    },

    compileAll() {
      for (const name of Object.keys(document.components?.schemas ?? {}))
        validatorAt(`/components/schemas/${escapePointer(name)}`);
      for (const [template, item] of Object.entries(paths))
        for (const [method, op] of Object.entries(item as Record<string, Any>)) {
          const base = `/paths/${escapePointer(template)}/${method}`;
          for (const [status, given] of Object.entries(
            (op.responses ?? {}) as Record<string, Any>,
          )) {
            const [r, at] = resolve(given, `${base}/responses/${escapePointer(status)}`);
            for (const [type, media] of Object.entries((r?.content ?? {}) as Record<string, Any>))
              if (media.schema !== undefined)
                validatorAt(`${at}/content/${escapePointer(type)}/schema`);
          }
          const [rb, rbAt] = resolve(op.requestBody, `${base}/requestBody`);
          for (const type of Object.keys(rb?.content ?? {}))
            validatorAt(`${rbAt}/content/${escapePointer(type)}/schema`);
        }
    },
  };
}

function errorsText(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .slice(0, 8)
    .map(
      (e) =>
        `  ${e.instancePath || '(body)'} ${e.message}${paramsText(e.params)} [${e.schemaPath}]`,
    )
    .join('\n');
}

function paramsText(params: Record<string, unknown>): string {
  const interesting = ['additionalProperty', 'missingProperty', 'allowedValues', 'format', 'type'];
  const parts = interesting
    .filter((k) => k in params)
    .map((k) => `${k}: ${JSON.stringify(params[k])}`);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** RFC 6901. */
function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

function pointerGet(document: Any, pointer: string): Any {
  let at = document;
  for (const part of pointer.split('/').slice(1)) {
    at = at?.[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return at;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}
