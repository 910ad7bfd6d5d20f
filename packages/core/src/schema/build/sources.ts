/**
 * build/sources: a schema given as several files (Gel's `dbschema/*.esdl`), the one rule that
 * joins them into one SDL text, and the way back from a position in that text to its file.
 *
 * Input: files with their names and texts, in the order they are read (by name). Output: the
 * joined text (each file starts a new line, so columns never change) and `locate`, which turns
 * a line of the joined text into the file and its own line.
 * Invariant: `joinSchemaFiles(files)` is the text `buildSchema(files)` builds.
 */
import type { SourcePosition } from '../../errors';

/** One schema file: its name as the user knows it (e.g. `dbschema/tags.esdl`) and its text. */
export interface SchemaFile {
  readonly name: string;
  readonly text: string;
}

/** The files as one SDL text, the way Gel reads a schema folder. */
export function joinSchemaFiles(files: readonly SchemaFile[]): string {
  return files.map((f) => f.text).join('\n');
}

/** A position in the joined text, moved into the file it falls in (the end with it). */
export function locateIn(files: readonly SchemaFile[], at: SourcePosition): SourcePosition {
  let first = 1;
  for (const file of files) {
    const lines = file.text.split('\n').length;
    if (at.line < first + lines) {
      const shift = first - 1;
      return {
        line: at.line - shift,
        column: at.column,
        ...(at.endLine === undefined || at.endColumn === undefined
          ? {}
          : { endLine: at.endLine - shift, endColumn: at.endColumn }),
        file: file.name,
      };
    }
    first += lines;
  }
  return at;
}
