/**
 * model/introspection: Gel's `schema` module (edb/lib/schema.edgeql) as data — its object types,
 * their bases and own pointers. The one declaration of the introspection types: the query
 * compiler's catalogue (query/schema-index/catalogue) builds their infos and rows from it, and a
 * schema may link to them (`link l -> schema::ObjectType`): such a link is a uuid the database
 * does not check (the catalogue's rows are derived from the schema, not stored), and its target
 * is never deleted, so `on target delete` has nothing to act on.
 * Invariants: pure data; names fully qualified.
 */

/** `name`, target, flags: `many`, `required`, `index` (an ordered link: `@index`), `value`
 * (`@value`, an annotation's value). A target `schema::X` / `std::BaseObject` makes a link. */
export type SchemaModulePointer = readonly [
  string,
  string,
  ...('many' | 'required' | 'index' | 'value')[],
];
export interface SchemaModuleType {
  readonly name: string;
  readonly abstract: boolean;
  readonly bases: readonly string[];
  readonly pointers: readonly SchemaModulePointer[];
}

const T = (
  name: string,
  abstract: boolean,
  bases: readonly string[],
  pointers: readonly SchemaModulePointer[] = [],
): SchemaModuleType => ({
  name: `schema::${name}`,
  abstract,
  bases: bases.map((b) => (b.includes('::') ? b : `schema::${b}`)),
  pointers,
});

/** Gel's schema module (edb/lib/schema.edgeql): types, bases, own pointers. */
export const SCHEMA_MODULE_TYPES: readonly SchemaModuleType[] = [
  T(
    'Object',
    true,
    ['std::BaseObject'],
    [
      ['name', 'str', 'required'],
      ['internal', 'bool', 'required'],
      ['builtin', 'bool', 'required'],
    ],
  ),
  T(
    'SubclassableObject',
    true,
    ['Object'],
    [
      ['abstract', 'bool'],
      ['is_abstract', 'bool'],
      ['final', 'bool'],
      ['is_final', 'bool'],
    ],
  ),
  T(
    'Type',
    true,
    ['SubclassableObject'],
    [
      ['expr', 'str'],
      ['from_alias', 'bool'],
      ['is_from_alias', 'bool'],
    ],
  ),
  T('PseudoType', false, ['Type']),
  T('Module', false, ['Object']),
  T('PrimitiveType', true, ['Type']),
  T('CollectionType', true, ['PrimitiveType']),
  T('Array', false, ['CollectionType'], [['element_type', 'schema::Type', 'required']]),
  T('ArrayExprAlias', false, ['Array']),
  T(
    'TupleElement',
    false,
    ['std::BaseObject'],
    [
      ['type', 'schema::Type', 'required'],
      ['name', 'str'],
    ],
  ),
  T(
    'Tuple',
    false,
    ['CollectionType'],
    [
      ['named', 'bool', 'required'],
      ['element_types', 'schema::TupleElement', 'many', 'index'],
    ],
  ),
  T('TupleExprAlias', false, ['Tuple']),
  T('Range', false, ['CollectionType'], [['element_type', 'schema::Type', 'required']]),
  T('RangeExprAlias', false, ['Range']),
  T('MultiRange', false, ['CollectionType'], [['element_type', 'schema::Type', 'required']]),
  T('MultiRangeExprAlias', false, ['MultiRange']),
  T('Delta', false, ['Object'], [['parents', 'schema::Delta', 'many']]),
  T(
    'AnnotationSubject',
    true,
    ['Object'],
    [['annotations', 'schema::Annotation', 'many', 'value']],
  ),
  T('Annotation', false, ['AnnotationSubject'], [['inheritable', 'bool']]),
  T(
    'InheritingObject',
    true,
    ['SubclassableObject'],
    [
      ['bases', 'schema::InheritingObject', 'many', 'index'],
      ['ancestors', 'schema::InheritingObject', 'many', 'index'],
    ],
  ),
  T(
    'Parameter',
    false,
    ['Object'],
    [
      ['type', 'schema::Type', 'required'],
      ['typemod', 'str'],
      ['kind', 'str'],
      ['num', 'int64'],
      ['default', 'str'],
    ],
  ),
  T(
    'CallableObject',
    true,
    ['AnnotationSubject'],
    [
      ['params', 'schema::Parameter', 'many', 'index'],
      ['return_type', 'schema::Type'],
      ['return_typemod', 'str'],
    ],
  ),
  T('VolatilitySubject', true, ['Object'], [['volatility', 'str']]),
  T(
    'ConsistencySubject',
    true,
    ['InheritingObject'],
    [['constraints', 'schema::Constraint', 'many']],
  ),
  T(
    'Constraint',
    false,
    ['CallableObject', 'InheritingObject'],
    [
      ['expr', 'str'],
      ['subjectexpr', 'str'],
      ['finalexpr', 'str'],
      ['errmessage', 'str'],
      ['delegated', 'bool'],
      ['except_expr', 'str'],
      ['subject', 'schema::ConsistencySubject'],
    ],
  ),
  T(
    'Index',
    false,
    ['InheritingObject', 'AnnotationSubject'],
    [
      ['expr', 'str'],
      ['except_expr', 'str'],
    ],
  ),
  T(
    'Source',
    true,
    ['Object'],
    [
      ['indexes', 'schema::Index', 'many'],
      ['pointers', 'schema::Pointer', 'many'],
    ],
  ),
  T(
    'Pointer',
    true,
    ['ConsistencySubject', 'AnnotationSubject'],
    [
      ['cardinality', 'str'],
      ['required', 'bool'],
      ['readonly', 'bool'],
      ['default', 'str'],
      ['expr', 'str'],
      ['secret', 'bool'],
      ['source', 'schema::Source'],
      ['target', 'schema::Type'],
    ],
  ),
  T(
    'AccessPolicy',
    false,
    ['InheritingObject', 'AnnotationSubject'],
    [
      ['subject', 'schema::ObjectType', 'required'],
      ['access_kinds', 'str', 'many'],
      ['condition', 'str'],
      ['action', 'str', 'required'],
      ['expr', 'str'],
      ['errmessage', 'str'],
    ],
  ),
  T('Trigger', false, ['InheritingObject', 'AnnotationSubject']),
  T('Rewrite', false, ['InheritingObject', 'AnnotationSubject']),
  T(
    'Alias',
    false,
    ['AnnotationSubject'],
    [
      ['expr', 'str', 'required'],
      ['type', 'schema::Type'],
    ],
  ),
  T(
    'ScalarType',
    false,
    ['PrimitiveType', 'ConsistencySubject', 'AnnotationSubject'],
    [['default', 'str']],
  ),
  T(
    'ObjectType',
    false,
    ['Source', 'ConsistencySubject', 'InheritingObject', 'Type', 'AnnotationSubject'],
    [
      ['union_of', 'schema::ObjectType', 'many'],
      ['intersection_of', 'schema::ObjectType', 'many'],
      ['access_policies', 'schema::AccessPolicy', 'many'],
      ['triggers', 'schema::Trigger', 'many'],
      ['compound_type', 'bool'],
      ['is_compound_type', 'bool'],
      ['links', 'schema::Link', 'many'],
      ['properties', 'schema::Property', 'many'],
    ],
  ),
  T(
    'Link',
    false,
    ['Pointer', 'Source'],
    [
      ['properties', 'schema::Property', 'many'],
      ['on_target_delete', 'str'],
      ['on_source_delete', 'str'],
    ],
  ),
  T('Property', false, ['Pointer']),
  T(
    'Global',
    false,
    ['AnnotationSubject'],
    [
      ['target', 'schema::Type'],
      ['required', 'bool'],
      ['cardinality', 'str'],
      ['expr', 'str'],
      ['default', 'str'],
    ],
  ),
  T('Permission', false, ['AnnotationSubject']),
  T(
    'Function',
    false,
    ['CallableObject', 'VolatilitySubject'],
    [
      ['preserves_optionality', 'bool'],
      ['body', 'str'],
      ['language', 'str'],
    ],
  ),
  T(
    'Operator',
    false,
    ['CallableObject', 'VolatilitySubject'],
    [
      ['operator_kind', 'str'],
      ['abstract', 'bool'],
      ['is_abstract', 'bool'],
    ],
  ),
  T(
    'Cast',
    false,
    ['AnnotationSubject', 'VolatilitySubject'],
    [
      ['from_type', 'schema::Type'],
      ['to_type', 'schema::Type'],
      ['allow_implicit', 'bool'],
      ['allow_assignment', 'bool'],
    ],
  ),
  T(
    'Migration',
    false,
    ['AnnotationSubject'],
    [
      ['parents', 'schema::Migration', 'many'],
      ['script', 'str', 'required'],
      ['sdl', 'str'],
      ['message', 'str'],
    ],
  ),
  T('Extension', false, ['AnnotationSubject']),
  T('FutureBehavior', false, ['Object']),
];

const NAMES: ReadonlySet<string> = new Set(SCHEMA_MODULE_TYPES.map((t) => t.name));

/** True for an object type of the `schema` module. */
export function isSchemaModuleType(name: string): boolean {
  return NAMES.has(name);
}
