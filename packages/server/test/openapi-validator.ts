/**
 * Checks an HTTP answer against an OpenAPI 3.1 document: the path template and operation it
 * hits, the response documented for its status (an undocumented status is a mismatch), the media
 * type, and the body against the response's JSON Schema with Ajv 2020-12 and formats. Any
 * mismatch throws an error naming the request, the status and what differs.
 * - HEAD is checked as the GET of the same path, with no body.
 * - A request the document does not describe (no path matches: 400 or 404, and 401 when the
 *   `/api` routes are gated; no such method on a documented path: 405) must be refused in the
 *   document's `Error` envelope: that is the only answer the document allows it.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export interface Answer {
  readonly method: string;
  /** The request path, with or without the query string. */
  readonly path: string;
  readonly status: number;
  /** The response's Content-Type header (null when there is none). */
  readonly contentType: string | null;
  /** The body: parsed JSON, or the text (parsed here when the media type is JSON), or null. */
  readonly body: unknown;
}

export interface DocumentValidator {
  /** Throws a readable error unless `answer` is what the document says. */
  check(answer: Answer): void;
  /** Throws a readable error unless `value` is valid for the component schema `name`. */
  checkSchema(name: string, value: unknown): void;
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

export function documentValidator(document: Any): DocumentValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addVocabulary(OPENAPI_KEYWORDS);
  ajv.addSchema(document, ROOT);
  /** Whether the `/api` routes need credentials (requireAuth): some operation there has security. */
  const apiGated = Object.entries(document.paths ?? {}).some(
    ([template, item]) =>
      template.startsWith('/api/') &&
      Object.values(item as Any).some(
        (op: Any) => Array.isArray(op?.security) && op.security.length > 0,
      ),
  );
  const templates = Object.keys(document.paths ?? {}).map((template) => ({
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

  return {
    checkSchema(name: string, value: unknown): void {
      if (document.components?.schemas?.[name] === undefined) {
        throw new Error(`no component schema ${name}`);
      }
      const validate = validatorAt(`/components/schemas/${escapePointer(name)}`);
      if (!validate(value)) {
        throw new Error(`${name}: ${errorsText(validate)}\nvalue: ${preview(value)}`);
      }
    },
    check(answer: Answer): void {
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
      const operation = document.paths[match.template][method];
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
          `status ${status} is not documented for ${answer.method} ${match.template} (documented: ${Object.keys(responses).join(', ')})`,
        );
      }
      const base = `/paths/${escapePointer(match.template)}/${method}/responses/${escapePointer(key)}`;
      const [response, at] = resolve(responses[key], base);
      const content = response?.content as Record<string, Any> | undefined;
      if (!content || Object.keys(content).length === 0 || head) {
        if (answer.body !== null && answer.body !== undefined && answer.body !== '') {
          fail(`the documented response has no body, got ${preview(answer.body)}`);
        }
        return;
      }
      const mediaType = (answer.contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (!(mediaType in content)) {
        return fail(
          `content type "${answer.contentType}" is not documented (documented: ${Object.keys(content).join(', ')})`,
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
      const validate = validatorAt(`${at}/content/${escapePointer(mediaType)}/schema`);
      if (!validate(body)) {
        fail(
          `the body does not match the documented schema:\n${errorsText(validate)}\nbody: ${preview(body)}`,
        );
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
