import fc from 'fast-check';
import * as ql from '../../syntax';
import { schemaArbitrary } from '../../syntax/__tests__/arbitraries';
import { applyDdl, generateDdl } from '.';
import { declarationKey, fromDraft, toDraft } from './draft';

type Member = ql.BlockMember | ql.SetField | ql.Using;

const memberOf = (m: Member): string => {
  const what = ql.memberWhat(m as ql.BlockMember);
  if (what !== null)
    return `${what === 'link' ? 'property' : what} ${ql.memberKey(m as ql.BlockMember)}`;
  return m.kind === 'SetField' ? `field ${m.name}` : m.kind === 'FunctionCode' ? 'Using' : m.kind;
};

/** No two declarations of a module, nor two members of a block, share a key. */
function unique(schema: ql.Schema): boolean {
  const names = (xs: readonly { name: string }[]) =>
    new Set(xs.map((x) => x.name)).size === xs.length;
  if (!names(schema.extensions) || !names(schema.futures)) return false;
  const blockOk = (members: readonly Member[]): boolean => {
    const keys = members.map(memberOf);
    if (new Set(keys).size !== keys.length) return false;
    return members.every((m) => m.kind !== 'PointerDecl' || blockOk(m.members as Member[]));
  };
  for (const decls of toDraft(schema).modules.values()) {
    const keys = decls.map(declarationKey);
    if (new Set(keys).size !== keys.length) return false;
    for (const d of decls)
      if (d.kind !== 'ModuleDecl' && !blockOk(d.members as Member[])) return false;
  }
  return true;
}

/** The schema with every block in one order, and spelling that means nothing dropped. */
function canonical(schema: ql.Schema): string {
  const text = (m: Member) =>
    ql.printDdl([
      {
        kind: 'AlterDeclaration',
        span: schema.span,
        ref: {
          kind: 'DeclarationRef',
          span: schema.span,
          declKind: 'type',
          module: 'm',
          name: 'n',
          signature: null,
        },
        commands: [{ kind: 'CreateMember', span: schema.span, member: m as ql.BlockMember }],
      },
    ]);
  const sortMembers = (members: readonly Member[]): Member[] =>
    members
      .map((m) =>
        m.kind === 'PointerDecl'
          ? ({ ...m, pointerKind: null, members: sortMembers(m.members as Member[]) } as Member)
          : m,
      )
      .map((m) => [text(m), m] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, m]) => m);
  const out: string[] = [
    ...schema.extensions.map((e) => `extension ${e.name} ${e.version}`).sort(),
    ...schema.futures.map((f) => `future ${f.name}`).sort(),
  ];
  for (const [module, decls] of [...toDraft(schema).modules].sort(([a], [b]) => (a < b ? -1 : 1))) {
    out.push(`module ${module}`);
    const printed = decls.map((d) => {
      const decl = (
        d.kind === 'ModuleDecl' ? d : { ...d, members: sortMembers(d.members as Member[]) }
      ) as ql.Declaration;
      return ql.printDdl([
        { kind: 'CreateDeclaration', span: schema.span, module, declaration: decl },
      ]);
    });
    out.push(...printed.sort());
  }
  return out.join('\n');
}

/**
 * `a` with its declarations kept, dropped, or given the body of one of `b` of the same kind
 * (keeping their names), as `choices` say, and `b`'s modules added: a second schema that alters
 * much of the first, not only creates and drops.
 */
function mix(a: ql.Schema, b: ql.Schema, choices: readonly number[]): ql.Schema {
  const from = toDraft(a);
  const others = [...toDraft(b).modules.values()].flat();
  let i = 0;
  const modules = new Map<string, ql.Declaration[]>();
  for (const [module, decls] of from.modules) {
    const kept: ql.Declaration[] = [];
    for (const d of decls) {
      const choice = Math.min((choices[i++ % Math.max(choices.length, 1)] ?? 0) % 4, 2);
      if (choice === 1) continue;
      const body = choice === 2 ? others.find((o) => o.kind === d.kind) : undefined;
      // (2 and 3 alter: half of the declarations are given another body where there is one)
      if (!body || body.kind === 'ModuleDecl' || d.kind === 'ModuleDecl') kept.push(d);
      else kept.push({ ...body, name: d.name } as ql.Declaration);
    }
    modules.set(module, kept);
  }
  for (const [module, decls] of toDraft(b).modules)
    if (!modules.has(module)) modules.set(module, decls);
  return fromDraft({ extensions: from.extensions, futures: from.futures, modules });
}

describe('DDL between any two schemas (property)', () => {
  test('between a schema and one altered from it', () => {
    let made = 0;
    fc.assert(
      fc.property(
        schemaArbitrary(),
        schemaArbitrary(),
        fc.array(fc.nat(), { minLength: 1, maxLength: 8 }),
        (a, b, choices) => {
          const c = mix(a, b, choices);
          fc.pre(unique(a) && unique(c));
          const parsed = ql.parseDdl(ql.printDdl(generateDdl(a, c)));
          expect(canonical(applyDdl(a, parsed).schema)).toBe(canonical(c));
          made += parsed.filter((p) => p.kind === 'AlterDeclaration').length;
        },
      ),
      { numRuns: 500 },
    );
    expect(made).toBeGreaterThan(25);
  });

  test('applied to the first, the DDL makes the second; printed, it reads back the same', () => {
    let checked = 0;
    let made = 0;
    fc.assert(
      fc.property(schemaArbitrary(), schemaArbitrary(), (a, b) => {
        fc.pre(unique(a) && unique(b));
        const commands = generateDdl(a, b);
        const text = ql.printDdl(commands);
        const parsed = ql.parseDdl(text);
        expect(ql.printDdl(parsed)).toBe(text);
        expect(canonical(applyDdl(a, parsed).schema)).toBe(canonical(b));
        checked++;
        made += parsed.length;
      }),
      { numRuns: 300 },
    );
    // The pairs were not all skipped, nor all trivial.
    expect(checked).toBe(300);
    expect(made).toBeGreaterThan(300);
  });
});
