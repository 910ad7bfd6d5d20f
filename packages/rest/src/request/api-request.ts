/**
 * The first REST stage's output: what the client asked for, before any schema is consulted
 * (PostgREST's ApiRequest). The next stage (plan) checks names against the schema.
 */
export type FilterOperator = 'eq' | 'in' | 'contains';

export interface Filter {
  readonly property: string;
  readonly operator: FilterOperator;
  /** One value for `eq` and `contains`, the comma-separated list for `in`. Still text. */
  readonly values: readonly string[];
}

export interface OrderTerm {
  readonly property: string;
  readonly direction: 'asc' | 'desc';
}

export interface Page {
  readonly limit: number;
  readonly offset: number;
}

export type ApiRequest =
  | { readonly kind: 'openapi' }
  | {
      readonly kind: 'list';
      readonly type: string;
      readonly filters: readonly Filter[];
      readonly order: readonly OrderTerm[];
      readonly page: Page;
    }
  | { readonly kind: 'get'; readonly type: string; readonly id: string }
  | {
      readonly kind: 'insert';
      readonly type: string;
      readonly body: Readonly<Record<string, unknown>>;
    }
  | {
      readonly kind: 'update';
      readonly type: string;
      readonly id: string;
      readonly body: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'delete'; readonly type: string; readonly id: string }
  | {
      readonly kind: 'linked';
      readonly type: string;
      readonly id: string;
      readonly link: string;
      readonly page: Page;
    };

/** `limit`: 100 by default, at most 1000 (docs/http.md, REST). */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
