/**
 * query/engine/schema-tracker: the schema the engine compiles against, kept current.
 *
 * Input: a `SchemaSource` (the stored version and SDL; the model, built once per version).
 * Output: the current `SchemaSnapshot` (version, model, error vocabulary).
 * How current (the choice, documented in the README's /query section):
 * - the stored version is read again at most once per `recheckMs` (default 500 ms), by one
 *   query that concurrent requests share, never one extra round trip per query;
 * - `invalidate()` forces the next `current()` to read it: the process that migrated (POST
 *   /migrations, `svc migrate` through the server) sees the new schema at once;
 * - another process's migration is seen within `recheckMs`, and at once when it changed the
 *   storage the cached SQL reads or made a name the query uses: the engine then calls
 *   `refresh()` and runs the query again (query/engine `STALE_SCHEMA_STATES`,
 *   InvalidReferenceError).
 */
import type { ErrorVocabulary } from '../../errors';
import type { Queryable } from '../../db/types';
import type { Schema } from '../../model/schema';
import type { Migrator } from '../../storage/migrate';
import { schemaVocabulary } from './vocabulary';

export interface SchemaSource {
  /**
   * The stored schema's version and SDL, read together (`Migrator.current`): through `via` (an
   * open transaction, which on PGlite holds the one connection) when given.
   */
  read(via?: Queryable): Promise<{ readonly version: string; readonly sdl: string }>;
  /** SDL → model; called once per new version. */
  build(sdl: string): Schema;
}

/** The schema a database holds, through its migrator (svc_meta.migrations). */
export function storedSchemaSource(
  db: Queryable,
  migrator: Pick<Migrator, 'current' | 'emptyVersion'>,
  build: (sdl: string) => Schema,
): SchemaSource {
  return {
    async read(via) {
      const stored = await migrator.current(via ?? db);
      return { version: stored?.version ?? migrator.emptyVersion, sdl: stored?.sdl ?? '' };
    },
    build,
  };
}

export interface SchemaSnapshot {
  readonly version: string;
  readonly schema: Schema;
  /** Built on first use: most snapshots never see a database error. */
  readonly vocabulary: ErrorVocabulary;
}

export class SchemaTracker {
  readonly #source: SchemaSource;
  readonly #recheckMs: number;
  readonly #now: () => number;
  #snapshot: SchemaSnapshot | undefined;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #checking: Promise<SchemaSnapshot> | undefined;
  /** Bumped by `invalidate()`: a read that began before it does not count as fresh. */
  #epoch = 0;

  constructor(
    source: SchemaSource,
    recheckMs: number,
    now: () => number = () => performance.now(),
  ) {
    this.#source = source;
    this.#recheckMs = recheckMs;
    this.#now = now;
  }

  /** The current snapshot; reads the stored version first when the last read is too old. */
  current(via?: Queryable): Promise<SchemaSnapshot> | SchemaSnapshot {
    if (this.#snapshot && this.#now() - this.#checkedAt < this.#recheckMs) return this.#snapshot;
    return this.refresh(via);
  }

  /** Reads the stored schema now (one read shared by concurrent callers); rebuilds if it moved. */
  refresh(via?: Queryable): Promise<SchemaSnapshot> {
    // Inside a transaction: its own read, never a shared one waiting for another connection
    // (on PGlite the transaction holds the only one).
    if (via) return this.#check(via);
    if (!this.#checking) {
      const checking = this.#check().finally(() => {
        if (this.#checking === checking) this.#checking = undefined;
      });
      this.#checking = checking;
    }
    return this.#checking;
  }

  /** The next `current()` reads the stored schema again (after a migration in this process). */
  invalidate(): void {
    this.#epoch++;
    this.#checkedAt = Number.NEGATIVE_INFINITY;
    this.#checking = undefined;
  }

  async #check(via?: Queryable): Promise<SchemaSnapshot> {
    const epoch = this.#epoch;
    const started = this.#now();
    const stored = await this.#source.read(via);
    if (this.#snapshot?.version !== stored.version) {
      this.#snapshot = snapshotOf(stored.version, this.#source.build(stored.sdl));
    }
    if (epoch === this.#epoch) this.#checkedAt = started;
    return this.#snapshot;
  }
}

function snapshotOf(version: string, schema: Schema): SchemaSnapshot {
  let vocabulary: ErrorVocabulary | undefined;
  return {
    version,
    schema,
    get vocabulary() {
      vocabulary ??= schemaVocabulary(schema);
      return vocabulary;
    },
  };
}
