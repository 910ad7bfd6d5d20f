/**
 * storage/layout-types: the shape of a storage layout (./layout): the tables, columns, junction
 * tables, foreign keys, checks, indexes, domains, views and triggers of one Schema, as the specs
 * sql/codegen/ddl prints and schema/diff compares.
 */
import type { TypeRef } from '../model/schema';
import type {
  CheckSpec,
  ColumnSpec,
  DomainSpec,
  ForeignKeySpec,
  IndexSpec,
  QName,
  ViewSpec,
} from '../sql/codegen/ddl';
import type { TriggerSpec } from '../sql/codegen/triggers';

export interface StorageLayout {
  /** PostgreSQL schemas needed (modules with a table, view or domain), sorted. */
  readonly modules: readonly string[];
  /** In dependency order (a base before the scalars extending it). */
  readonly domains: readonly DomainLayout[];
  readonly tables: readonly TypeTable[];
  readonly views: readonly ViewLayout[];
  /** What foreign keys and unique indexes cannot hold (./integrity), sorted. */
  readonly triggers: readonly TriggerSpec[];
}

export interface DomainLayout {
  readonly scalar: string;
  readonly spec: DomainSpec;
  readonly sequence: QName | null;
}

export interface PointerColumn {
  readonly pointer: string;
  readonly kind: 'property' | 'link';
  /** For `default::User.email`-style subjects. */
  readonly subject: string;
  readonly target: TypeRef;
  readonly column: ColumnSpec;
  /** The default is applied by the query compiler (not expressible as a column default). */
  readonly queryDefault: boolean;
}

export interface JunctionTable {
  readonly pointer: string;
  readonly kind: 'property' | 'link';
  readonly subject: string;
  readonly target: TypeRef;
  readonly table: QName;
  /** `target` (links) or `value` (properties). */
  readonly valueColumn: 'target' | 'value';
  readonly columns: readonly ColumnSpec[];
  readonly primaryKey: readonly string[] | null;
}

export interface OwnedForeignKey {
  readonly subject: string;
  readonly pointer: string;
  readonly spec: ForeignKeySpec;
}

export interface OwnedCheck {
  /** `default::User.age` or `default::User`. */
  readonly subject: string;
  /** `std::max_value(150)` — for descriptions. */
  readonly label: string;
  readonly spec: CheckSpec;
  /** Key columns to list offending rows by (`id`, or `source` + `value`). */
  readonly keys: readonly string[];
}

export interface OwnedIndex {
  readonly subject: string;
  readonly kind: 'constraint' | 'index' | 'link';
  readonly label: string;
  readonly spec: IndexSpec;
  /**
   * For an `exclusive` constraint a type hierarchy shares (not delegated): the constraint's
   * identity, the same in every table of the hierarchy (./integrity checks across them).
   */
  readonly shared?: string;
}

export interface TypeTable {
  readonly type: string;
  readonly table: QName;
  /** `id` first, then stored single pointers in the type's order. */
  readonly columns: readonly PointerColumn[];
  readonly junctions: readonly JunctionTable[];
  readonly foreignKeys: readonly OwnedForeignKey[];
  readonly checks: readonly OwnedCheck[];
  readonly indexes: readonly OwnedIndex[];
}

export interface ViewLayout {
  readonly type: string;
  readonly spec: ViewSpec;
}
