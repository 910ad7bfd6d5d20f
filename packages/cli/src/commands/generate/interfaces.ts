/**
 * generate/interfaces: the TypeScript of a schema's types, as `@svc/client` decodes them (its
 * codec's table): an interface per object type with every pointer (inherited ones included;
 * links typed as the target's interface, multi pointers as arrays, optional ones `| null`),
 * enums as unions of their labels, and a `Schema` map from qualified names to interfaces.
 *
 * Each module is a namespace (`default` as `$default`, its types also exported at the top
 * level); references are qualified, so two modules may each have a `User`. Pure: the same
 * schema gives the same text.
 */
import type { ObjectType, Pointer, Schema, TypeRef } from '@svc/core';

const STD: Readonly<Record<string, string>> = {
  'std::str': 'string',
  'std::uuid': 'string',
  'std::bool': 'boolean',
  'std::int16': 'number',
  'std::int32': 'number',
  'std::int64': 'number',
  'std::float32': 'number',
  'std::float64': 'number',
  'std::sequence': 'number',
  'std::bigint': 'bigint',
  'std::decimal': 'string',
  'std::datetime': 'Date',
  'std::bytes': 'Uint8Array',
  'std::json': 'unknown',
  'std::duration': 'Duration',
  'cal::local_date': 'LocalDate',
  'cal::local_time': 'LocalTime',
  'cal::local_datetime': 'LocalDateTime',
  'cal::relative_duration': 'RelativeDuration',
  'cal::date_duration': 'DateDuration',
};
/** The package the generated file imports its value classes from (text it writes: the CLI
 * itself does not depend on the client). */
const CLIENT_PACKAGE = ['@svc', 'client'].join('/');
/** The @svc/client classes the TypeScript above names. */
const CLIENT_CLASSES = [
  'DateDuration',
  'Duration',
  'LocalDate',
  'LocalDateTime',
  'LocalTime',
  'Range',
  'RelativeDuration',
];

const RESERVED = new Set(
  'break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with as implements interface let package private protected public static yield any boolean number string symbol type namespace module declare'.split(
    ' ',
  ),
);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A module's namespace path (`default` → `$default`, `a::b` → `a.b`). */
function namespaceOf(module: string): string {
  return module
    .split('::')
    .map((part) =>
      RESERVED.has(part) || !IDENTIFIER.test(part) ? `$${part.replace(/\W/g, '_')}` : part,
    )
    .join('.');
}

function split(qualified: string): { module: string; name: string } {
  const at = qualified.lastIndexOf('::');
  return { module: qualified.slice(0, at), name: qualified.slice(at + 2) };
}

const propertyKey = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

export function generateInterfaces(schema: Schema, source: string): string {
  const used = new Set<string>();
  const scalars = new Map(schema.scalarTypes.map((s) => [s.name, s]));
  const qualified = (name: string) => {
    const { module, name: local } = split(name);
    return `${namespaceOf(module)}.${local}`;
  };
  const tsType = (ref: TypeRef): string => {
    switch (ref.kind) {
      case 'scalar': {
        const custom = scalars.get(ref.name);
        if (custom?.enumValues) return qualified(ref.name);
        const ts = STD[custom ? custom.stdBase : ref.name] ?? 'unknown';
        if (CLIENT_CLASSES.includes(ts)) used.add(ts);
        return ts;
      }
      case 'object':
        return ref.name === 'std::Object' || ref.name === 'std::BaseObject'
          ? '{ id: string }'
          : qualified(ref.name);
      case 'union':
        return ref.members.map(qualified).join(' | ');
      case 'array':
        return `Array<${tsType(ref.element)}>`;
      case 'range':
        used.add('Range');
        return `Range<${tsType(ref.element)}>`;
      case 'multirange':
        used.add('Range');
        return `Array<Range<${tsType(ref.element)}>>`;
      case 'tuple':
        return ref.elements.every((e) => e.name !== null)
          ? `{ ${ref.elements.map((e) => `${propertyKey(e.name as string)}: ${tsType(e.type)}`).join('; ')} }`
          : `[${ref.elements.map((e) => tsType(e.type)).join(', ')}]`;
    }
  };
  const pointerLine = (p: Pointer): string => {
    const type = tsType(p.target);
    const value =
      p.cardinality === 'many' ? `Array<${type}>` : p.required ? type : `${type} | null`;
    return `    ${p.computed || p.readonly ? 'readonly ' : ''}${propertyKey(p.name)}: ${value};`;
  };

  const byModule = new Map<string, string[]>();
  const add = (module: string, text: string) =>
    byModule.set(module, [...(byModule.get(module) ?? []), text]);
  for (const s of [...schema.scalarTypes].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!s.enumValues) continue;
    const { module, name } = split(s.name);
    add(
      module,
      `  export type ${name} = ${s.enumValues.map((v) => JSON.stringify(v)).join(' | ')};`,
    );
  }
  const types = [...schema.objectTypes].sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const t of types) add(split(t.name).module, interfaceText(t, pointerLine));

  const out: string[] = [
    `// Generated by \`svc generate interfaces\` from ${source}. Do not edit: run it again.`,
  ];
  const body: string[] = [];
  for (const module of [...byModule.keys()].sort()) {
    body.push(`export namespace ${namespaceOf(module)} {`, ...(byModule.get(module) ?? []), '}');
  }
  const defaults = [
    ...schema.scalarTypes.filter((s) => s.enumValues && split(s.name).module === 'default'),
    ...types.filter((t) => split(t.name).module === 'default'),
  ]
    .map((t) => split(t.name).name)
    .sort();
  if (defaults.length > 0) {
    body.push('');
    for (const name of defaults) body.push(`export type ${name} = $default.${name};`);
  }
  body.push('', '/** Every object type by its qualified name. */', 'export interface Schema {');
  for (const t of types) body.push(`  ${JSON.stringify(t.name)}: ${qualified(t.name)};`);
  body.push('}');
  if (used.size > 0)
    out.push(`import type { ${[...used].sort().join(', ')} } from '${CLIENT_PACKAGE}';`);
  out.push('', ...body, '');
  return out.join('\n');
}

function interfaceText(t: ObjectType, pointerLine: (p: Pointer) => string): string {
  const pointers = [...t.pointers]
    .filter((p) => p.name !== '__type__')
    .sort((a, b) => (a.name === 'id' ? -1 : b.name === 'id' ? 1 : a.name < b.name ? -1 : 1));
  const { name } = split(t.name);
  return [`  export interface ${name} {`, ...pointers.map(pointerLine), '  }'].join('\n');
}
