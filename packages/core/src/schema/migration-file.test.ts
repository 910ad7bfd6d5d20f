import fc from 'fast-check';
import { MigrationError } from '../errors';
import {
  makeMigration,
  migrationChain,
  migrationFileName,
  parseMigrationFile,
  renderMigrationFile,
} from './migration-file';

const SDL = `module default {\n  type User {\n    required name: str;\n    about: str;\n  };\n};\n`;

describe('migration files', () => {
  const first = makeMigration(null, {}, 'type User { required name: str; bio: str; }');
  const second = makeMigration(
    first.id,
    {
      renames: [{ kind: 'pointer', type: 'default::User', from: 'bio', to: 'about' }],
      fills: { 'default::User.handle': `str_lower(.name) ++ ';'` },
    },
    SDL,
  );

  it('renders a readable file and reads it back to the same migration', () => {
    const text = renderMigrationFile(second, ['rename property default::User.bio to about']);
    expect(text).toBe(
      [
        '# rename property default::User.bio to about',
        '',
        `create migration ${second.id} onto ${first.id};`,
        'rename default::User.bio to about;',
        `fill default::User.handle := str_lower(.name) ++ ';';`,
        'schema to {',
        SDL.replace(/\n$/, ''),
        '};',
        '',
      ].join('\n'),
    );
    expect(parseMigrationFile(text, 'f.edgeql')).toEqual(second);
    expect(parseMigrationFile(renderMigrationFile(first), 'f.edgeql')).toEqual(first);
    expect(migrationFileName(2, second.id)).toMatch(/^00002-[0-9a-f]{12}\.edgeql$/);
  });

  it('the id is the content: another parent, rename, fill or schema is another id', () => {
    expect(second.id).toMatch(/^m1[0-9a-f]{64}$/);
    const ids = new Set([
      second.id,
      makeMigration(null, { renames: second.renames, fills: second.fills }, SDL).id,
      makeMigration(first.id, { fills: second.fills }, SDL).id,
      makeMigration(first.id, { renames: second.renames }, SDL).id,
      makeMigration(first.id, second, `${SDL}# x\n`).id,
    ]);
    expect(ids.size).toBe(5);
    // Line ends and trailing blank lines are not content.
    expect(makeMigration(first.id, second, `${SDL.replace(/\n/g, '\r\n')}\n\n`).id).toBe(second.id);
  });

  it('refuses a file changed after it was made, naming the file', () => {
    const text = renderMigrationFile(second);
    const edited = text.replace('required name: str;', 'required name: str; age: int64;');
    expect(() => parseMigrationFile(edited, '00002-x.edgeql')).toThrow(
      /00002-x\.edgeql: its content does not match its id m1[0-9a-f]{12}: it was changed/,
    );
    expect(() => parseMigrationFile(edited, 'f')).toThrow(MigrationError);
    // Comments are not content: a reviewer's note does not break the id.
    expect(parseMigrationFile(`# reviewed\n${text}`, 'f')).toEqual(second);
  });

  it('refuses text it cannot read, with the line', () => {
    expect(() => parseMigrationFile('hello', 'a.edgeql')).toThrow(
      /a\.edgeql:1: expected `create migration/,
    );
    const head = `create migration ${first.id} onto initial;`;
    expect(() => parseMigrationFile(`${head}\ndrop everything;\n`, 'a')).toThrow(
      /a:2: cannot read `drop everything;`/,
    );
    expect(() => parseMigrationFile(`${head}\n`, 'a')).toThrow(/expected `schema to/);
    expect(() => parseMigrationFile(`${head}\nschema to {\ntype A;\n`, 'a')).toThrow(
      /must end with `};`/,
    );
  });

  it('a chain applies each file onto the one before it', () => {
    const files = [
      { name: '00002-b.edgeql', text: renderMigrationFile(second) },
      { name: '00001-a.edgeql', text: renderMigrationFile(first) },
    ];
    expect(migrationChain(files).map((m) => m.id)).toEqual([first.id, second.id]);
    const sibling = makeMigration(first.id, {}, 'type Other;');
    expect(() =>
      migrationChain([...files, { name: '00003-c.edgeql', text: renderMigrationFile(sibling) }]),
    ).toThrow(/00003-c\.edgeql applies onto m1[0-9a-f]{12}, but the migration before it is/);
    expect(() => migrationChain([files[0] as (typeof files)[0]])).toThrow(/before it is none/);
  });

  it('any schema text, renames and one-line fills survive the file (property)', () => {
    const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.array(fc.tuple(name, name, name), { maxLength: 3 }),
        fc.dictionary(
          name,
          fc
            .string({ minLength: 1, maxLength: 40 })
            .filter((s) => !/[\r\n]/.test(s) && s.trim() === s && s.length > 0),
        ),
        (sdl, renames, fills) => {
          const m = makeMigration(
            null,
            {
              renames: renames.map(([type, from, to]) => ({ kind: 'pointer', type, from, to })),
              fills: Object.fromEntries(
                Object.entries(fills).map(([k, v]) => [`default::${k}.x`, v]),
              ),
            },
            sdl,
          );
          expect(parseMigrationFile(renderMigrationFile(m, ['a step']), 'p')).toEqual(m);
        },
      ),
      { numRuns: 200 },
    );
  });
});
