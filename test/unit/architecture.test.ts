import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli-helpers.js';

/** Every .ts file under src/, with the relative imports it makes (resolved to src/ paths). */
async function sources(): Promise<{ file: string; text: string; imports: string[] }[]> {
  const out: { file: string; text: string; imports: string[] }[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else if (e.name.endsWith('.ts')) {
        const text = await readFile(full, 'utf8');
        const imports = [...text.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)].map((m) => {
          const spec = m[1] as string;
          return spec.startsWith('.')
            ? path.relative(path.join(ROOT, 'src'), path.resolve(path.dirname(full), spec))
            : spec;
        });
        out.push({ file: path.relative(path.join(ROOT, 'src'), full), text, imports });
      }
    }
  };
  await walk(path.join(ROOT, 'src'));
  return out;
}

const files = await sources();
const folder = (f: string) => f.split(path.sep)[0] ?? '';

describe('the shape of the house (house-style.md)', () => {
  it.each(files.filter((f) => folder(f.file) === 'core').map((f) => [f.file, f] as const))(
    'core/%s imports only the core, nothing from node:, no Node globals',
    (_name, f) => {
      for (const i of f.imports)
        expect(i.startsWith('core/') || i.startsWith('core\\'), `${f.file} imports ${i}`).toBe(true);
      expect(f.text).not.toMatch(/\bBuffer\b|\bprocess\.|require\(|__dirname/);
    },
  );

  it('the adapters import the core and the generated snapshot, never the Node side', () => {
    for (const f of files.filter((x) => folder(x.file) === 'adapters')) {
      for (const i of f.imports)
        expect(/^(core|adapters|generated)\//.test(i) || i === 'msw', `${f.file} imports ${i}`).toBe(true);
    }
  });

  it('the contract never imports the server or the watcher; nothing imports the CLI; generated imports nothing', () => {
    for (const f of files) {
      if (folder(f.file) === 'contract')
        for (const i of f.imports)
          expect(i.startsWith('server/') || i === 'load/watch.js', `${f.file} imports ${i}`).toBe(false);
      if (folder(f.file) !== 'cli')
        for (const i of f.imports) expect(i.startsWith('cli/'), `${f.file} imports ${i}`).toBe(false);
      if (folder(f.file) === 'generated') expect(f.imports).toEqual([]);
    }
  });
});
