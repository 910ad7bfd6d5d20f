/**
 * Checks HTTP answers against an OpenAPI 3.1 document with Ajv (JSON Schema 2020-12): the status
 * must be documented for the operation, the JSON body must validate against its schema, and the
 * headers the document requires (Location, Retry-After) or that the answer carries (Set-Cookie)
 * must be documented. A mismatch throws one readable message naming the operation.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = Record<string, unknown>;
const DOC_ID = 'openapi.json';

/** `/auth/sessions/{id}` as a JSON pointer segment inside a URI fragment. */
const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** The body as text ('' when none). */
  readonly text: string;
}

export function openApiValidator(document: Json) {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    allowUnionTypes: true,
    allErrors: true,
  });
  addFormats(ajv);
  // The fields of an OpenAPI Object are not JSON Schema keywords.
  ajv.addVocabulary([
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
  ]);
  ajv.addSchema({ ...document, $id: DOC_ID });
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const validatorAt = (...segments: string[]) => {
    const at = `${DOC_ID}#/${pointer(...segments)}`;
    let v = compiled.get(at);
    if (!v) {
      v = ajv.compile({ $ref: at });
      compiled.set(at, v);
    }
    return v;
  };
  const paths = document.paths as Record<string, Record<string, Json>>;

  const operationOf = (method: string, path: string): Json => {
    const op = paths[path]?.[method.toLowerCase()];
    if (!op) throw new Error(`${method} ${path} is not in the document`);
    return op;
  };

  /** Validates `value` at a schema inside the document; returns a readable problem or null. */
  const problemOf = (value: unknown, segments: string[]): string | null => {
    const validate = validatorAt(...segments);
    if (validate(value)) return null;
    return ajv.errorsText(validate.errors, { dataVar: 'body', separator: '; ' });
  };

  return {
    /** Throws unless `answer` is one the document describes for `method path`. */
    checkAnswer(method: string, path: string, answer: Answer): void {
      const where = `${method} ${path} answered ${answer.status}`;
      const responses = operationOf(method, path).responses as Record<string, Json>;
      const response = responses[String(answer.status)];
      if (!response)
        throw new Error(
          `${where}, which is not documented (documented: ${Object.keys(responses).join(', ')}); body: ${answer.text.slice(0, 300)}`,
        );
      const headers = (response.headers ?? {}) as Record<string, Json>;
      for (const [name, header] of Object.entries(headers))
        if (header.required && !answer.headers.has(name))
          throw new Error(`${where} without the documented header ${name}`);
      if (answer.headers.has('set-cookie') && !headers['Set-Cookie'])
        throw new Error(`${where} with a Set-Cookie the document does not mention`);
      const content = response.content as Record<string, Json> | undefined;
      if (!content) {
        if (answer.text !== '') throw new Error(`${where} with a body where none is documented`);
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(answer.text);
      } catch {
        throw new Error(`${where} with a body that is not JSON: ${answer.text.slice(0, 200)}`);
      }
      const problem = problemOf(body, [
        'paths',
        path,
        method.toLowerCase(),
        'responses',
        String(answer.status),
        'content',
        'application/json',
        'schema',
      ]);
      if (problem)
        throw new Error(
          `${where} with a body the document refuses: ${problem}\n${answer.text.slice(0, 500)}`,
        );
    },

    /** Throws unless `body` is a request body the document accepts for `method path`. */
    checkRequest(
      method: string,
      path: string,
      body: unknown,
      mediaType = 'application/json',
    ): void {
      const op = operationOf(method, path);
      const requestBody = op.requestBody as Json | undefined;
      if (!requestBody) {
        if (body !== undefined) throw new Error(`${method} ${path}: the document takes no body`);
        return;
      }
      if (body === undefined) {
        if (requestBody.required)
          throw new Error(`${method} ${path}: the document requires a body`);
        return;
      }
      const problem = problemOf(body, [
        'paths',
        path,
        method.toLowerCase(),
        'requestBody',
        'content',
        mediaType,
        'schema',
      ]);
      if (problem)
        throw new Error(
          `${method} ${path}: the document refuses a body the server accepted: ${problem}`,
        );
    },

    /**
     * Throws unless `values` (path and query parameters by name) are ones the document accepts
     * for `method path`: every required parameter present, each value valid, none unknown.
     */
    checkParameters(method: string, path: string, values: Readonly<Record<string, string>>): void {
      const params = (operationOf(method, path).parameters ?? []) as Json[];
      for (const [i, p] of params.entries()) {
        const value = values[p.name as string];
        if (value === undefined) {
          if (p.required)
            throw new Error(`${method} ${path}: the required parameter ${p.name} is missing`);
          continue;
        }
        const problem = problemOf(value, [
          'paths',
          path,
          method.toLowerCase(),
          'parameters',
          String(i),
          'schema',
        ]);
        if (problem)
          throw new Error(
            `${method} ${path}: the document refuses the ${p.name} the server accepted: ${problem}`,
          );
      }
      for (const name of Object.keys(values))
        if (!params.some((p) => p.name === name))
          throw new Error(`${method} ${path}: the parameter ${name} is not documented`);
    },

    /** Compiles every schema of the document (strict mode): unknown keywords, broken $refs. */
    compileAll(): void {
      for (const name of Object.keys((document.components as Json).schemas as Json))
        validatorAt('components', 'schemas', name);
      for (const [path, item] of Object.entries(paths))
        for (const [method, op] of Object.entries(item)) {
          for (const [status, r] of Object.entries(op.responses as Record<string, Json>))
            if (r.content)
              validatorAt(
                'paths',
                path,
                method,
                'responses',
                status,
                'content',
                'application/json',
                'schema',
              );
          const rb = op.requestBody as Json | undefined;
          if (rb)
            for (const type of Object.keys(rb.content as Json))
              validatorAt('paths', path, method, 'requestBody', 'content', type, 'schema');
        }
    },
  };
}
