import { createHash } from 'node:crypto';
import { MigrationError } from '../errors';
import {
  makeMigration,
  migrationChain,
  migrationFileName,
  parseMigrationFile,
  renderMigrationFile,
} from './migration-file';

describe('migration files (format 2: EdgeQL DDL)', () => {
  const first = makeMigration(null, 'type User { required name: str; bio: str; }');
  const second = makeMigration(
    first,
    'type User { required name: str; about: str; required handle: str; }',
    {
      renames: [{ kind: 'pointer', type: 'default::User', from: 'bio', to: 'about' }],
      fills: { 'default::User.handle': `str_lower(.name) ++ ';'` },
    },
  );
  const chain = (...ms: (typeof first)[]) =>
    migrationChain(
      ms.map((m, i) => ({ name: migrationFileName(i + 1, m.id), text: renderMigrationFile(m) })),
    );

  it('renders the DDL Gel writes, and reads it back to the same migration', () => {
    const text = renderMigrationFile(second, ['rename property default::User.bio to about']);
    expect(text).toBe(
      [
        '# rename property default::User.bio to about',
        '',
        `create migration ${second.id}`,
        `    onto ${first.id}`,
        '{',
        '    alter type default::User {',
        '        alter property bio {',
        '            rename to about;',
        '        };',
        '        create property handle: str;',
        '        alter property handle {',
        `            set required using (str_lower(.name) ++ ';');`,
        '        };',
        '    };',
        '};',
        '',
      ].join('\n'),
    );
    expect(chain(first, second)).toEqual([first, second]);
    expect(second.renames).toEqual([
      { kind: 'pointer', type: 'default::User', from: 'bio', to: 'about' },
    ]);
    expect(second.fills).toEqual({ 'default::User.handle': `str_lower(.name) ++ ';'` });
    expect(renderMigrationFile(first)).toContain(
      `create migration ${first.id}\n    onto initial\n{\n    create module default;\n    create type default::User {`,
    );
    expect(migrationFileName(2, second.id)).toMatch(/^00002-[0-9a-f]{12}\.edgeql$/);
  });

  it('the id is the parent and the DDL: not its layout, not its comments', () => {
    expect(second.id).toMatch(/^m1[0-9a-f]{64}$/);
    const onto = makeMigration(null, 'type User { required name: str; about: str; }');
    expect(new Set([first.id, second.id, onto.id]).size).toBe(3);
    const text = renderMigrationFile(second);
    const relaid = `# reviewed by Ann\n${text.replace(/\n {8}/g, '\n  ').replace(/\n/g, '\r\n')}`;
    expect(parseMigrationFile(relaid, 'f').id).toBe(second.id);
  });

  it('refuses a file changed after it was made, naming the file', () => {
    const edited = renderMigrationFile(second).replace('rename to about', 'rename to about2');
    expect(() => parseMigrationFile(edited, '00002-x.edgeql')).toThrow(
      /00002-x\.edgeql: its content does not match its id m1[0-9a-f]{12}: it was changed/,
    );
    expect(() => parseMigrationFile(edited, 'f')).toThrow(MigrationError);
  });

  it('refuses text it cannot read, with the file and line', () => {
    expect(() => parseMigrationFile('hello', 'a.edgeql')).toThrow(
      /a\.edgeql:1: expected `create migration/,
    );
    const head = `create migration ${first.id}\n    onto initial\n{\n`;
    expect(() => parseMigrationFile(`${head}    drop everything;\n};\n`, 'a')).toThrow(
      /^a:4: Unexpected .*everything/,
    );
    expect(() => parseMigrationFile(`${head}    create module x;\n`, 'a')).toThrow(
      /must end with `};`/,
    );
  });

  it('a chain applies each file onto the one before it; a command that does not fit names its line', () => {
    const files = [
      { name: '00002-b.edgeql', text: renderMigrationFile(second) },
      { name: '00001-a.edgeql', text: renderMigrationFile(first) },
    ];
    expect(migrationChain(files).map((m) => m.id)).toEqual([first.id, second.id]);
    const sibling = makeMigration(first, 'type Other;');
    expect(() =>
      migrationChain([...files, { name: '00003-c.edgeql', text: renderMigrationFile(sibling) }]),
    ).toThrow(/00003-c\.edgeql applies onto m1[0-9a-f]{12}, but the migration before it is/);
    expect(() => migrationChain([files[0] as (typeof files)[0]])).toThrow(/before it is none/);
    // A file whose DDL does not fit the schema before it (written by hand, with a valid id).
    const ddl = 'alter type default::Nope {\n    drop property x;\n};';
    const id = `m1${createHash('sha256')
      .update(JSON.stringify({ formatVersion: 2, parent: first.id, ddl }))
      .digest('hex')}`;
    const text = `create migration ${id}\n    onto ${first.id}\n{\n${ddl}\n};\n`;
    expect(() =>
      migrationChain([files[1] as (typeof files)[0], { name: '00002-z.edgeql', text }]),
    ).toThrow(/00002-z\.edgeql: line 4: type default::Nope: there is no such type/);
  });
});

describe('migration files (format 1: the schema, read only)', () => {
  // Written as the first release wrote them; their ids are that release's.
  const sdlId = (
    parent: string | null,
    renames: unknown[],
    fills: [string, string][],
    sdl: string,
  ) =>
    `m1${createHash('sha256')
      .update(JSON.stringify({ formatVersion: 1, parent, renames, fills, sdl }))
      .digest('hex')}`;
  const sdl1 = 'type User { required name: str; bio: str; }\n';
  const id1 = sdlId(null, [], [], sdl1);
  const sdl2 = 'type User { required name: str; about: str; }\n';
  const id2 = sdlId(id1, [['pointer', 'default::User', 'bio', 'about']], [], sdl2);
  const v1 = `# steps\ncreate migration ${id1} onto initial;\nschema to {\n${sdl1}};\n`;
  const v2 = `create migration ${id2} onto ${id1};\nrename default::User.bio to about;\nschema to {\n${sdl2}};\n`;

  it('is read, and a format-2 file applies onto it', () => {
    const third = makeMigration(
      { id: id2, parent: id1, format: 1, ddl: null, renames: [], fills: {}, sdl: sdl2 },
      'type User { required name: str; about: str; age: int64; }',
    );
    const ms = migrationChain([
      { name: '00001.edgeql', text: v1 },
      { name: '00002.edgeql', text: v2 },
      { name: '00003.edgeql', text: renderMigrationFile(third) },
    ]);
    expect(ms.map((m) => [m.format, m.id])).toEqual([
      [1, id1],
      [1, id2],
      [2, third.id],
    ]);
    expect(ms[1]?.renames).toEqual([
      { kind: 'pointer', type: 'default::User', from: 'bio', to: 'about' },
    ]);
    expect(ms[1]?.sdl).toBe(sdl2);
    expect(third.ddl).toBe('alter type default::User {\n    create property age: int64;\n};');
  });

  it('an edited one is refused', () => {
    expect(() => parseMigrationFile(v2.replace('about: str', 'about: int64'), 'old')).toThrow(
      /old: its content does not match its id/,
    );
  });
});
