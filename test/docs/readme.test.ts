// The README is a front page: short, its first block the two commands CI runs, and every link into
// docs/ (file and heading) leading somewhere. Links between the pages of docs/ are held the same way.
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli-helpers.js';

const readme = await readFile(`${ROOT}README.md`, 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const h = /^#{1,6} (.+)$/.exec(line);
    if (!fenced && h?.[1]) out.add(slug(h[1]));
  }
  return out;
}

/** Relative links of a Markdown text outside code: `[text](target)` and `![alt](target)`. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string).filter((t) => !/^[a-z]+:/.test(t));
}

/** The links of `text` (the file `file`, relative to the repository) that lead nowhere. */
async function brokenLinksIn(text: string, file: string): Promise<string[]> {
  const broken: string[] = [];
  for (const link of relativeLinks(text)) {
    const [target = '', anchor] = link.split('#');
    const resolved = path.join(ROOT, path.dirname(file), target);
    if (target !== '' && !existsSync(resolved)) broken.push(`${link} (no file)`);
    else if (anchor !== undefined && (target === '' || resolved.endsWith('.md'))) {
      const page = target === '' ? text : await readFile(resolved, 'utf8');
      if (!anchorsOf(page).has(anchor)) broken.push(`${link} (no such heading)`);
    }
  }
  return broken;
}

async function brokenLinks(file: string): Promise<string[]> {
  return brokenLinksIn(await readFile(path.join(ROOT, file), 'utf8'), file);
}

describe('README.md', () => {
  it('has at most 200 lines', () => {
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  });

  it('opens with the two commands that work on a fresh machine (CI runs this block)', () => {
    const first = /```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(first).toBe(
      'npm ci && npm start    # the stub, with its bundled spec and fixtures, on http://127.0.0.1:4010\n' +
        'npm test               # type check, lint, and the tests (the slow ones: npm run test:slow)\n',
    );
    expect(readme.indexOf('```sh')).toBeLessThan(readme.indexOf('\n## '));
  });

  it('links to every page of docs/', async () => {
    const pages = (await readdir(`${ROOT}docs`)).filter((f) => f.endsWith('.md'));
    for (const page of pages) expect(readme).toContain(`](docs/${page})`);
  });

  it('has a first five minutes for each role', () => {
    for (const role of ['Frontend developer', 'QA', 'API designer']) expect(readme).toContain(`### ${role}\n`);
  });

  it('every link into docs/ (and elsewhere in the repository) resolves, headings included', async () => {
    expect(relativeLinks(readme).filter((l) => l.startsWith('docs/')).length).toBeGreaterThan(10);
    expect(await brokenLinks('README.md')).toEqual([]);
  });
});

describe('docs/*.md', () => {
  it('every relative link resolves, headings included', async () => {
    const pages = (await readdir(`${ROOT}docs`)).filter((f) => f.endsWith('.md'));
    const broken = (
      await Promise.all(pages.map(async (p) => (await brokenLinks(`docs/${p}`)).map((l) => `${p}: ${l}`)))
    ).flat();
    expect(broken).toEqual([]);
  });

  it('a broken link is found: a missing file and a missing heading', async () => {
    expect(slug('Probes: the error contract (`--probes`)')).toBe('probes-the-error-contract---probes');
    expect(relativeLinks('[a](docs/nope.md) and [b](docs/qa.md#nope) and `[c](x.md)`')).toEqual([
      'docs/nope.md',
      'docs/qa.md#nope',
    ]);
    expect(anchorsOf('# A b\n```\n# not a heading\n```\n## C: d')).toEqual(new Set(['a-b', 'c-d']));
    const text = '[a](docs/nope.md), [b](docs/qa.md#nope), [c](docs/qa.md#in-ci), [d](#here)\n\n## Here\n';
    expect(await brokenLinksIn(text, 'README.md')).toEqual([
      'docs/nope.md (no file)',
      'docs/qa.md#nope (no such heading)',
    ]);
  });
});
