import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FIXTURES, SPEC } from './helpers.js';

/** A copy of the bundled spec and fixtures in a fresh folder, to break in one way per test. */
export interface Workspace {
  readonly dir: string;
  readonly specDir: string;
  readonly spec: string;
  readonly fixtures: string;
}

export async function workspace(prefix = 'stub-workspace-'): Promise<Workspace> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  await cp(path.dirname(SPEC), path.join(dir, 'openapi'), { recursive: true });
  await cp(FIXTURES, path.join(dir, 'fixtures'), { recursive: true });
  return {
    dir,
    specDir: path.join(dir, 'openapi'),
    spec: path.join(dir, 'openapi', 'openapi.yaml'),
    fixtures: path.join(dir, 'fixtures'),
  };
}

/** Where the root document `$ref`s the desk schema (components/schemas/Desk). */
export const DESK_REF_POINTER = '/components/schemas/Desk/$ref';

/** Makes the root document's desk `$ref` say `ref` instead of './schemas/desk.yaml'. */
export async function setDeskRef(w: Workspace, ref: string): Promise<void> {
  const text = await readFile(w.spec, 'utf8');
  if (!text.includes("$ref: './schemas/desk.yaml'")) throw new Error('the desk $ref is gone from the spec');
  await writeFile(w.spec, text.replace("$ref: './schemas/desk.yaml'", `$ref: ${JSON.stringify(ref)}`));
}

/** A YAML "billion laughs": nine levels of nine aliases each, under an extension of the root. */
export function aliasBomb(): string {
  const lines = ['x-lol:', '  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i <= 9; i++)
    lines.push(`  a${i}: &a${i} [${Array.from({ length: 9 }, () => `*a${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

/** A JSON fixture of desks whose first desk holds a value nested `depth` deep. */
export function deepFixture(depth: number): string {
  return `[\n  {"pk": 1, "building": "A", "floor": 1, "number": "1", "active": true, "lead": true, "ergonomic": true, "held_today": true,\n   "x": ${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}\n]\n`;
}
