/** The type catalogue of `GET /schema/types`, as the app uses it. */
import { call } from './api';

export interface Pointer {
  name: string;
  target: string;
  required: boolean;
  cardinality: 'One' | 'Many';
  readonly: boolean;
  computed: string | null;
  default: string | null;
  constraints: string[];
  annotations: Record<string, string>;
  inheritedFrom: string | null;
}

export interface Link extends Pointer {
  onTargetDelete: string | null;
  properties: Pointer[];
}

export interface ObjectType {
  name: string;
  abstract: boolean;
  bases: string[];
  properties: Pointer[];
  links: Link[];
  constraints: string[];
  indexes: string[];
  annotations: Record<string, string>;
  open: boolean;
  policies: {
    name: string;
    action: string;
    kinds: string[];
    when: string | null;
    using: string | null;
  }[];
}

export interface Catalogue {
  version: string;
  types: ObjectType[];
  scalars: { name: string; base: string; enumValues: string[] | null }[];
}

export async function loadCatalogue(): Promise<Catalogue> {
  return (await call<Catalogue>('/schema/types')).data;
}

/** The REST route name of a type: module-qualified outside `default`. */
export function routeName(type: string): string {
  return type.startsWith('default::') ? type.slice('default::'.length) : type;
}

export function findType(catalogue: Catalogue, route: string): ObjectType | undefined {
  return catalogue.types.find((t) => routeName(t.name) === route || t.name === route);
}

/** Pointers the REST default shape shows (not `rest::hidden`). */
export function visible<T extends Pointer>(pointers: readonly T[]): T[] {
  return pointers.filter((p) => !('rest::hidden' in p.annotations));
}

/** Pointers a write may set: stored, not `id`. */
export function writable<T extends Pointer>(pointers: readonly T[]): T[] {
  return visible(pointers).filter(
    (p) => p.computed === null && p.name !== 'id' && p.name !== '__type__',
  );
}

/** The std scalar a type name is stored as (custom scalars through their base). */
export function baseScalar(catalogue: Catalogue, target: string): string {
  const custom = catalogue.scalars.find((s) => s.name === target);
  if (custom?.enumValues) return 'enum';
  return custom ? custom.base : target;
}

export function enumValues(catalogue: Catalogue, target: string): string[] | null {
  return catalogue.scalars.find((s) => s.name === target)?.enumValues ?? null;
}
