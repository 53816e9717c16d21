import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli-helpers.js';
import { workspace, type Workspace } from '../workspace.js';
import { LoadError } from '../../src/load/errors.js';
import { ContractAjv } from '../../src/openapi/ajv.js';
import { groupProblems } from '../../src/load/group-problems.js';
import { rel } from '../../src/load/paths.js';
import { loadState } from '../../src/load/state.js';

/** The lines a broken workspace's start-up prints, as `printLoadError` groups them. */
async function problemLines(w: Workspace): Promise<string[]> {
  try {
    await loadState({ specFile: w.spec, fixturesDir: w.fixtures, seed: 1, defaultGenerateCount: 0, final: true });
  } catch (e) {
    if (e instanceof LoadError) return groupProblems(e.problems);
    throw e;
  }
  throw new Error('the workspace loaded');
}

async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${from} is not in ${file}`);
  await writeFile(file, text.replace(from, to));
}

/** The 1-based line of the first occurrence of `needle` in `file`. */
async function lineOf(file: string, needle: string): Promise<number> {
  return (await readFile(file, 'utf8')).split(needle)[0]?.split('\n').length ?? 0;
}

describe('an error points at the file and line the designer wrote it in', () => {
  it('a misspelled keyword in a $ref’d schema file is told against that file, with line and column', async () => {
    const w = await workspace('stub-place-');
    const desk = path.join(w.specDir, 'schemas', 'desk.yaml');
    await edit(desk, '  floor:\n    type: integer', '  floor:\n    tpye: integer');
    const line = await lineOf(desk, 'tpye');
    expect(await problemLines(w)).toEqual([
      `${rel(desk)} at line ${line}:5 (/properties/floor/tpye): unknown keyword "tpye" (JSON Schema 2020-12 and OpenAPI 3.1 have none of that name: a misspelled keyword checks nothing)`,
    ]);
  });

  it('a fixture item the schema refuses is placed at its line and column in the fixture file', async () => {
    const w = await workspace('stub-place-');
    const file = path.join(w.fixtures, 'desk.json');
    const desks = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[];
    desks[3] = { ...desks[3], building: 'Z' };
    await writeFile(file, JSON.stringify(desks, null, 2));
    const line = await lineOf(file, '"building": "Z"');
    expect(await problemLines(w)).toEqual([
      `${rel(file)} at line ${line}:5 (/3/building): must be equal to one of the allowed values: ["S","P"]`,
    ]);
  });

  it('a format of the spec’s own is an annotation: the spec loads, a warning placed in its file says it is not checked', async () => {
    const w = await workspace('stub-place-');
    const desk = path.join(w.specDir, 'schemas', 'desk.yaml');
    await edit(desk, '  floor:\n    type: integer', '  floor:\n    type: integer\n    format: floor-number');
    const line = await lineOf(desk, 'format: floor-number');
    // Before, strict Ajv stopped the load on it: `unknown format "floor-number" ignored …`, no place.
    const state = await loadState({
      specFile: w.spec,
      fixturesDir: w.fixtures,
      seed: 1,
      defaultGenerateCount: 0,
      final: true,
    });
    expect(state.warnings.map((p) => `${p.file}:${p.line}:${p.column} ${p.pointer}`)).toContain(
      `${rel(desk)}:${line}:5 /properties/floor/format`,
    );
    // The checker's Ajv compiles it too, and checks the rest of the schema.
    const check = new ContractAjv(state.spec.doc);
    expect(check.validate('#/components/schemas/Desk/properties/floor', 3)).toEqual([]);
    expect(check.validate('#/components/schemas/Desk/properties/floor', 'x')).not.toEqual([]);
  });

  it('a mistake under a $ref with a fragment (items.yaml#/Signature) is placed in that file, under that name', async () => {
    const w = await workspace('stub-place-');
    const items = path.join(w.specDir, 'schemas', 'items.yaml');
    await edit(items, 'Signature:\n  type: object', 'Signature:\n  tpye: object');
    const line = await lineOf(items, 'tpye');
    const lines = await problemLines(w);
    expect(lines[0]).toMatch(
      new RegExp(`^\\S*schemas/items\\.yaml at line ${line}:3 \\(/Signature/tpye\\): unknown keyword "tpye"`),
    );
  });

  it('an invalid keyword value in a $ref’d file is placed there too', async () => {
    const w = await workspace('stub-place-');
    const desk = path.join(w.specDir, 'schemas', 'desk.yaml');
    await edit(desk, 'type: integer', 'type: intger');
    const lines = await problemLines(w);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^\S*openapi\/schemas\/desk\.yaml at line \d+:\d+ \(\/properties\/\w+/);
  });

  it('a typo of an OpenAPI field is told in words, with the field it likely means, on its line', async () => {
    const w = await workspace('stub-place-');
    const line = await lineOf(w.spec, '      responses:');
    await edit(w.spec, '      responses:', '      reponses:');
    const [only, ...rest] = await problemLines(w);
    expect(rest).toEqual([]);
    expect(only).toMatch(
      new RegExp(
        `^\\S*openapi/openapi\\.yaml at line ${line}:7 \\(/paths/[^ ]+/reponses\\): unknown field \`reponses\` in an operation; did you mean \`responses\`\\?$`,
      ),
    );
    expect(only).not.toContain('unevaluated');
  });

  it('the same error over many fixture items and examples is one line each', async () => {
    const w = await workspace('stub-place-');
    await edit(path.join(w.specDir, 'schemas', 'desk.yaml'), 'required: [url, pk,', 'required: [zone, url, pk,');
    const desks = (JSON.parse(await readFile(path.join(w.fixtures, 'desk.json'), 'utf8')) as unknown[]).length;
    const lines = await problemLines(w);
    // The first item's place in the file: the fixture's first object opens on line 2, column 3.
    expect(lines).toContain(
      `${desks} items of ${rel(path.join(w.fixtures, 'desk.json'))} lack \`zone\`: /0, /1, /2 … and ${desks - 3} more (the first at line 2:3)`,
    );
    expect(lines.length).toBeLessThan(5);
  });

  it('the CLI prints the grouped lines, each file named as every other line names it', async () => {
    const w = await workspace('stub-place-');
    await edit(path.join(w.specDir, 'schemas', 'desk.yaml'), 'required: [url, pk,', 'required: [zone, url, pk,');
    const desks = (JSON.parse(await readFile(path.join(w.fixtures, 'desk.json'), 'utf8')) as unknown[]).length;
    const r = await runCli(['--spec', w.spec, '--fixtures', w.fixtures, '--port', '0', '--quiet']);
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n').slice(1);
    expect(lines.length).toBeLessThan(5);
    expect(lines).toContain(`  2 items of ${rel(w.spec)} example twoDesks lack \`zone\`: /0, /1`);
    expect(lines.some((l) => l.startsWith(`  ${desks} items of ${rel(path.join(w.fixtures, 'desk.json'))} lack`))).toBe(
      true,
    );
  });
});
