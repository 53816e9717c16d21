import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as refParserUrl from '@apidevtools/json-schema-ref-parser/dist/lib/util/url.js';
import { describe, expect, it } from 'vitest';
import { both, freshDir, published, REPOSITORY_SPECS, same, useBundleHarness } from './bundle-harness.js';

useBundleHarness();

describe('the bundler patched at install: the library output, in linear time', () => {
  it.each(REPOSITORY_SPECS)('%s', async (_name, file) => {
    const { ours, theirs, handed } = await both(file);
    expect(same(ours, theirs)).toBe(true);
    expect(same(handed, theirs)).toBe(true);
    expect((ours as { value?: unknown }).value).toBeDefined();
  });

  it.each<[string, Record<string, string>]>([
    [
      // One $ref object reached by two paths of the same depth: the one under "definitions" is
      // crawled first, and wins over another $ref to the same value.
      'a $ref reached twice at the same depth, once under definitions',
      {
        'root.yaml':
          "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\naaaaaaaaaaa: {k: {$ref: './a.yaml#/Y'}}\ndefinitions: {k: {$ref: './a.yaml#/Y'}}\nr: {$ref: './a.yaml#/Y2'}\n",
        'a.yaml': "Y: {inner: {$ref: './b.yaml#/Z'}}\nY2: {deeper: {more: {$ref: './b.yaml#/Z'}}}\n",
        'b.yaml': 'Z: {type: object}\n',
      },
    ],
    [
      // An external $ref met again by a shorter path: its value is crawled again from there, and
      // the $refs inside it take the shorter path too.
      'an external $ref met again by a shorter path',
      {
        'root.yaml':
          "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nx: {y: {z: {$ref: './a.yaml#/Y'}}}\nt: {$ref: './a.yaml#/Y'}\ns: {s2: {$ref: './a.yaml#/Y3'}}\n",
        'a.yaml': "Y: {inner: {$ref: './b.yaml#/Z'}}\nY3: {a: {$ref: './b.yaml#/W'}}\n",
        'b.yaml': "Z: {q: {$ref: '#/Q'}}\nW: {b: {$ref: '#/Q'}}\nQ: {type: string}\n",
      },
    ],
    [
      // Two $refs to one value, at the same depth, by paths of the same length: the one crawled
      // first (members by the length of their key, the shorter first) is inlined, the other
      // points to it; written longer key first, and shorter first.
      'two $refs alike but for the order their members are crawled in',
      {
        'root.yaml':
          "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nP: {long: {k: {$ref: './a.yaml#/X'}}, s: {kkkk: {$ref: './a.yaml#/X'}}}\nQ: {s: {kkkk: {$ref: './a.yaml#/V'}}, long: {k: {$ref: './a.yaml#/V'}}}\n",
        'a.yaml': 'X: {type: string}\nV: {type: integer}\n',
      },
    ],
  ])('%s', async (_name, texts) => {
    const dir = await freshDir();
    for (const [name, text] of Object.entries(texts)) await writeFile(path.join(dir, name), text);
    const { ours, theirs, handed } = await both(path.join(dir, 'root.yaml'));
    expect((theirs as { value?: unknown }).value).toBeDefined();
    expect(ours).toEqual(theirs);
    expect(handed).toEqual(theirs);
  });

  it("reads each file's external $refs from the pre-scan's list, not from a second walk", async () => {
    const dir = await freshDir();
    await writeFile(
      path.join(dir, 'root.yaml'),
      "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\nx: {$ref: './a.yaml#/Y'}\n",
    );
    await writeFile(path.join(dir, 'a.yaml'), "Y: {type: object, properties: {z: {$ref: './b.yaml#/Z'}}}\n");
    await writeFile(path.join(dir, 'b.yaml'), 'Z: {type: string}\n');
    const root = path.join(dir, 'root.yaml');
    const { theirs, handed } = await both(root);
    expect(handed).toEqual(theirs);
    // a.yaml's list emptied: b.yaml is never read, and its $ref cannot be resolved.
    const emptied = await both(root, (scanned) => {
      for (const [url, refs] of scanned) if (url.endsWith('/a.yaml')) refs.length = 0;
    });
    expect(emptied.handed).not.toEqual(theirs);
    expect(JSON.stringify(emptied.handed)).toMatch(/b\.yaml/);
  });
});

describe("the library's URL resolution, memoized by the patch", () => {
  it('answers as the original for every base (any fragment) and reference, first time and memoized', async () => {
    const original = (from: string, to: string) => published().url.resolve(from, to);
    const bases = [
      '/tmp/spec/openapi.yaml',
      '/tmp/a b/x.yaml',
      '/tmp/a%20b/x.yaml',
      'schemas/x.yaml',
      'https://h.example/p/q.yaml',
      'file:///tmp/s.yaml',
      '/tmp/with#hash/x.yaml',
      '',
      '#',
    ];
    const fragments = ['', '#', '#/a/b', '#/paths/~1api~1v1~1desk/get', '#x#y', '#/é/%20'];
    const refs = [
      '',
      '#',
      '#/components/schemas/A',
      '?q=1',
      'a.yaml',
      './a.yaml#/B',
      '../up.yaml',
      ' spaced.yaml ',
      'http://other.example/x.json#/y',
      '//host/p',
      '%2e%2e/x',
      'é.yaml',
      'a\\b.yaml',
      '/abs.yaml#',
      'c:/win.yaml',
    ];
    let compared = 0;
    for (let round = 0; round < 2; round++) {
      for (const base of bases) {
        for (const fragment of fragments) {
          for (const ref of refs) {
            let want: string | Error;
            let got: string | Error;
            try {
              want = original(base + fragment, ref);
            } catch (e) {
              want = e as Error;
            }
            try {
              got = refParserUrl.resolve(base + fragment, ref);
            } catch (e) {
              got = e as Error;
            }
            if (want instanceof Error) expect(got).toBeInstanceOf(Error);
            else expect(got, `${base + fragment} + ${ref}`).toBe(want);
            compared++;
          }
        }
      }
    }
    expect(compared).toBe(2 * bases.length * fragments.length * refs.length);
  });

  it('a reference that is a fragment: every printable ASCII character, and a few others, in every place', async () => {
    const original = (from: string, to: string) => published().url.resolve(from, to);
    const chars = [
      ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
      '\t',
      '\n',
      '\u0000',
      '\u007f',
      'é',
      '\u3000',
    ];
    const bases = [
      '/tmp/spec/openapi.yaml#/paths/x',
      'https://h.example/p/q.yaml',
      'file:///tmp/s.yaml#/a',
      'schemas/x.yaml',
      'c:\\win\\x.yaml#/a',
      '/tmp/with#hash/x.yaml',
    ];
    let fast = 0;
    for (const base of bases) {
      for (const c of chars) {
        for (const ref of [`#${c}`, `#/a${c}b`, `#/components/schemas/A${c}`, `#${c}/x`, `#/${c}${c}`]) {
          expect(refParserUrl.resolve(base, ref), `${base} + ${JSON.stringify(ref)}`).toBe(original(base, ref));
          if (/^#[!-~]+$/.test(ref)) fast++;
        }
      }
    }
    expect(fast).toBeGreaterThan(1000);
  });
});
