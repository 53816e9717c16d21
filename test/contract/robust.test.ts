// The checker as a CI citizen: never crashes, never leaks, never hangs, says what it could not
// verify. Every case is a hostile deployment over real HTTP.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { exitCode, runCheck, type CheckOptions } from '../../src/contract/checker.js';
import { type Contract, loadContract } from '../../src/contract/load.js';
import { jsonReport, junitReport, textReport } from '../../src/contract/reporters.js';
import type { CheckReport } from '../../src/contract/report.js';
import { runCli } from '../cli-helpers.js';
import { SPEC } from '../helpers.js';
import { deployment, EMPTY_PAGE, freePort, sendJson } from './deployments.js';

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract(SPEC);
});

const opts = (base: string, more: Partial<CheckOptions> = {}): CheckOptions => ({
  baseUrl: base,
  headers: {},
  timeoutMs: 3000,
  concurrency: 4,
  maxPages: 50,
  only: [],
  ...more,
});
const rules = (r: CheckReport) => new Set(r.violations.map((v) => v.rule));
const pathOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://x').pathname;

/** Every collection empty, except the paths `special` answers. */
function emptyExcept(
  special: (req: IncomingMessage, res: ServerResponse, origin: string) => boolean | Promise<boolean>,
) {
  return async (req: IncomingMessage, res: ServerResponse, { origin }: { origin: string }) => {
    if (await special(req, res, origin)) return;
    sendJson(res, 200, EMPTY_PAGE);
  };
}

describe('hostile answers are reported, never a crash', () => {
  it('JSON nested 100,000 deep: a json violation, no stack overflow', async () => {
    const deep = `{"count":1,"next":null,"previous":null,"results":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`;
    const d = await deployment(
      emptyExcept((req, res) => pathOf(req) === '/api/v1/desk' && (sendJson(res, 200, deep), true)),
    );
    try {
      const report = await runCheck(contract, opts(d.base));
      const hit = report.violations.find((v) => v.rule === 'json');
      expect(hit?.found).toMatch(/nested deeper than 256 levels/);
      expect(exitCode(report)).toBe(1);
      const cli = await runCli(['check', '--base-url', d.base, '--only', 'desk']);
      expect(cli.code).toBe(1);
      expect(cli.stdout).toMatch(/json \(spec: the body is valid JSON, nested at most 256 levels\)/);
      expect(cli.stderr).toBe('');
    } finally {
      await d.close();
    }
  });

  it('a 1 GiB body is cut at --max-body: answer.size, and the rest is never read', async () => {
    let written = 0;
    const d = await deployment(
      emptyExcept((req, res) => {
        if (pathOf(req) !== '/api/v1/desk') return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (written < 1024 ** 3 && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
        return true;
      }),
    );
    try {
      const started = performance.now();
      const report = await runCheck(contract, opts(d.base, { maxBody: 1024 * 1024, only: ['desk'] }));
      expect(report.violations.map((v) => [v.rule, v.found])).toEqual([
        ['answer.size', 'the answer is larger than --max-body 1048576 bytes'],
      ]);
      expect(performance.now() - started).toBeLessThan(5000);
      await new Promise((r) => setTimeout(r, 200));
      expect(written).toBeLessThan(64 * 1024 ** 2);
    } finally {
      await d.close();
    }
  });

  it('a declared Content-Length over --max-body is refused before reading', async () => {
    const d = await deployment(
      emptyExcept((req, res) => {
        if (pathOf(req) !== '/api/v1/desk') return false;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1024 ** 3) }).write('{');
        return true;
      }),
    );
    try {
      const report = await runCheck(contract, opts(d.base, { maxBody: 1024 * 1024, only: ['desk'] }));
      expect(report.violations[0]).toMatchObject({
        rule: 'answer.size',
        found: expect.stringMatching(/declares 1073741824 bytes/),
      });
    } finally {
      await d.close();
    }
  });

  it.each([
    // 1,024 gzip members of 1 MiB of zeros each: 1 MiB on the wire, 1 GiB inflated.
    ['gzip', () => Buffer.concat(Array.from({ length: 1024 }).fill(gzipSync(Buffer.alloc(1024 * 1024))) as Buffer[])],
    [
      'br',
      () => brotliCompressSync(Buffer.alloc(64 * 1024 * 1024), { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }),
    ],
    ['deflate', () => deflateSync(Buffer.alloc(64 * 1024 * 1024))],
  ])('a %s bomb is cut at --max-body decompressed', async (encoding, make) => {
    const bomb = make();
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const d = await deployment(
      emptyExcept((req, res) => {
        if (pathOf(req) !== '/api/v1/desk') return false;
        res
          .writeHead(200, {
            'content-type': 'application/json',
            'content-encoding': encoding,
            'content-length': String(bomb.length),
          })
          .end(bomb);
        return true;
      }),
    );
    try {
      const before = process.memoryUsage().rss;
      const report = await runCheck(contract, opts(d.base, { maxBody: 4 * 1024 * 1024, only: ['desk'] }));
      expect(report.violations.map((v) => [v.rule, v.found])).toEqual([
        ['answer.size', 'the answer decompresses to more than --max-body 4194304 bytes'],
      ]);
      expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    } finally {
      await d.close();
    }
  });

  it('an unknown or broken Content-Encoding is a transport violation', async () => {
    const d = await deployment(
      emptyExcept((req, res) => {
        const p = pathOf(req);
        if (p === '/api/v1/desk')
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'zstd-nonsense' }).end('{}');
        else if (p === '/api/v1/employee')
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end('not gzip at all');
        else return false;
        return true;
      }),
    );
    try {
      const report = await runCheck(contract, opts(d.base, { only: ['desk', 'employee'] }));
      expect(
        report.violations.map((v) => [v.rule, v.found.split(':')[0]]),
        textReport(report),
      ).toEqual([
        ['transport', 'the gzip body cannot be decoded'],
        ['transport', 'unknown Content-Encoding "zstd-nonsense"'],
      ]);
    } finally {
      await d.close();
    }
  });
});

describe('bounded memory: items live only as long as their page', () => {
  it('with --item-urls 0, 100 MB of desks over 50 pages never hold more than a few pages in memory', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const notes = 'n'.repeat(2 * 1024 * 1024);
    const pages = 50;
    const d = await deployment(
      emptyExcept((req, res, origin) => {
        if (pathOf(req) !== '/api/v1/desk') return false;
        const page = Number(new URL(req.url ?? '/', origin).searchParams.get('page') ?? '1');
        const link = (n: number) =>
          n === 1 ? `${origin}/api/v1/desk?format=api` : `${origin}/api/v1/desk?format=api&page=${n}`;
        const desk = {
          url: `${origin}/api/v1/desk/${page}?format=api`,
          pk: page,
          building: 'S',
          floor: 1,
          number: String(page),
          active: true,
          lead: false,
          ergonomic: false,
          held_today: false,
          notes,
        };
        sendJson(res, 200, {
          count: pages,
          next: page < pages ? link(page + 1) : null,
          previous: page > 1 ? link(page - 1) : null,
          results: [desk],
        });
        return true;
      }),
    );
    try {
      gc();
      const baseline = process.memoryUsage().heapUsed;
      let peak = 0;
      const report = await runCheck(contract, {
        ...opts(d.base, { only: ['desk'], itemUrls: 0, maxPages: 200 }),
        observer: {
          items: () => {
            gc();
            peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
          },
        },
      });
      expect(report.violations).toEqual([]);
      expect(report.endpoints[0]).toMatchObject({ pages: 50, items: 50, itemUrlsFetched: 0, itemUrlsSkipped: 50 });
      expect(report.endpoints[0]?.skipped['item-url.addressable']).toBe('not run: --item-urls 0');
      expect(d.seen.filter((s) => s.url.startsWith('/api/v1/desk/'))).toEqual([]);
      // 100 MB went by; a page is 2 MB (its text and its parse).
      expect(peak).toBeLessThan(40 * 1024 * 1024);
    } finally {
      await d.close();
    }
  });
});

describe('violations are counted, the first ones kept', () => {
  it('5,000 broken desks: 100 kept per rule, the rest counted in every report', async () => {
    const d = await deployment(
      emptyExcept((req, res) => {
        if (pathOf(req) !== '/api/v1/desk') return false;
        const results = Array.from({ length: 5000 }, (_, i) => ({
          pk: i + 1,
          building: 'AB',
          floor: 1,
          number: '1',
          active: true,
          lead: false,
          ergonomic: false,
          held_today: false,
        }));
        sendJson(res, 200, { count: 5000, next: null, previous: null, results });
        return true;
      }),
    );
    try {
      const report = await runCheck(contract, opts(d.base, { only: ['desk'] }));
      const desk = report.endpoints[0];
      expect(desk?.violations.filter((v) => v.rule === 'schema')).toHaveLength(100);
      expect(desk?.omitted).toEqual({ schema: 4900, 'item.fields': 4900 });
      expect(exitCode(report)).toBe(1);
      expect(textReport(report)).toMatch(/… and 4980 more/);
      expect(textReport(report)).toMatch(/10000 violations of 2 rules/);
      expect(junitReport(report)).toMatch(/… and 4900 more<\/failure>/);
    } finally {
      await d.close();
    }
  });
});

describe('a crawl cut short is not verified', () => {
  const endless = emptyExcept((req, res, origin) => {
    if (pathOf(req) !== '/api/v1/employee') return false;
    const page = Number(new URL(req.url ?? '/', origin).searchParams.get('page') ?? '1');
    const link = (n: number) =>
      n === 1 ? `${origin}/api/v1/employee?format=api` : `${origin}/api/v1/employee?format=api&page=${n}`;
    sendJson(res, 200, {
      count: 1_000_000_000,
      next: link(page + 1),
      previous: page > 1 ? link(page - 1) : null,
      results: [{ pk: page }],
    });
    return true;
  });

  it('an endless pagination stops at --max-pages and fails: crawl.truncated', async () => {
    const d = await deployment(endless);
    try {
      const report = await runCheck(contract, opts(d.base, { maxPages: 5, only: ['employee'] }));
      expect([...rules(report)]).toEqual(['crawl.truncated']);
      expect(report.endpoints[0]).toMatchObject({ pages: 5, truncated: true });
      expect(report.endpoints[0]?.skipped['envelope.count-reached']).toMatch(/not verified/);
      expect(textReport(report)).toMatch(/stopped at 5 pages, --max-pages: not verified/);
      const cli = await runCli(['check', '--base-url', d.base, '--only', 'employee', '--max-pages', '5']);
      expect(cli.code).toBe(1);
    } finally {
      await d.close();
    }
  });

  it('with --allow-truncated it is a note: exit 0, count not verified', async () => {
    const d = await deployment(endless);
    try {
      const report = await runCheck(contract, opts(d.base, { maxPages: 5, only: ['employee'], allowTruncated: true }));
      expect(report.violations).toEqual([]);
      expect(exitCode(report)).toBe(0);
      expect(report.endpoints[0]?.skipped).toMatchObject({
        'crawl.truncated': 'allowed by --allow-truncated: stopped at 5 pages',
        'envelope.count-reached': expect.stringMatching(/not verified/),
      });
      expect(junitReport(report)).toMatch(
        /name="listEmployees: envelope.count-reached" time="[\d.]+">\s*<skipped message="not verified/,
      );
    } finally {
      await d.close();
    }
  });
});

describe('secrets never leak, terminals never get escape codes', () => {
  const TOKEN = 'Token Zq9"Xv\\Wk/3141+secret';
  const BASIC_PASSWORD = 'Pw-Zq9-secret!';
  const basic = `Basic ${Buffer.from(`qa:${BASIC_PASSWORD}`).toString('base64')}`;

  /** Every collection fails with a body that echoes the credentials it got, in every encoding, at a place that moves across the clip. */
  const echo = async (req: IncomingMessage, res: ServerResponse) => {
    const auth = req.headers.authorization ?? '';
    const cred = auth.replace(/^\S+\s+/, '');
    const decoded = Buffer.from(cred, 'base64').toString('utf8');
    const pad = 150 + ((pathOf(req).length * 7) % 100);
    const forms = [
      auth,
      JSON.stringify(auth).slice(1, -1),
      encodeURIComponent(auth),
      cred,
      decoded,
      decoded.split(':')[1] ?? '',
      Buffer.from(auth).toString('base64'),
    ];
    const form = forms[pathOf(req).length % forms.length] ?? auth;
    if (pathOf(req) === '/api/v1/desk')
      return sendJson(res, 200, {
        count: 1,
        next: null,
        previous: null,
        results: [
          {
            url: `http://x/?t=${encodeURIComponent(auth)}`,
            pk: 1,
            building: form,
            floor: 1,
            number: '1',
            active: true,
            lead: false,
            ergonomic: false,
            held_today: false,
          },
        ],
      });
    res
      .writeHead(500, { 'content-type': 'text/html' })
      .end(`<h1>Server Error</h1>${'.'.repeat(pad)}${form} and again ${forms.join(' ')}`);
  };

  it.each([
    ['a token with " and \\', TOKEN, /Zq9|Xv\\|3141/],
    [
      'a Basic credential',
      basic,
      new RegExp(`Zq9|${Buffer.from(`qa:${BASIC_PASSWORD}`).toString('base64').slice(0, 8)}`),
    ],
  ])('%s echoed by the deployment is redacted everywhere', async (_name, secret, leak) => {
    const d = await deployment(echo);
    try {
      const report = await runCheck(contract, opts(d.base, { headers: { authorization: secret } }));
      expect(report.violations.length).toBeGreaterThan(20);
      expect(textReport(report)).toContain('[redacted]');
      for (const out of [textReport(report), jsonReport(report), junitReport(report)]) expect(out).not.toMatch(leak);
    } finally {
      await d.close();
    }
  });

  it('escape codes, C1 controls and bidi overrides from the deployment reach no report', async () => {
    const evil = '\u001b[2J\u001b]8;;http://evil\u0007click\u001b]8;;\u0007\u009b31m\u202eA\r\n✓ forged line';
    const d = await deployment(
      emptyExcept((req, res, origin) => {
        if (pathOf(req) === '/api/v1/review') {
          res.writeHead(500, { 'content-type': 'text/html' }).end(evil);
          return true;
        }
        if (pathOf(req) === '/api/v1/desk') {
          sendJson(res, 200, {
            count: 1,
            next: null,
            previous: null,
            results: [
              {
                url: `${origin}/api/v1/desk/1?format=api`,
                pk: 1,
                building: evil,
                floor: 1,
                number: '1',
                active: true,
                lead: false,
                ergonomic: false,
                held_today: false,
                [evil]: 1,
              },
            ],
          });
          return true;
        }
        return false;
      }),
    );
    try {
      const report = await runCheck(contract, opts(d.base, { itemUrls: 0 }));
      expect(rules(report)).toEqual(new Set(['status', 'schema']));
      const text = textReport(report);
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      expect(text).toContain('\\u001b[2J');
      expect(text).not.toMatch(/^✓ forged line/m);
      const cli = await runCli(['check', '--base-url', d.base, '--only', 'review,desk', '--item-urls', '0']);
      expect(cli.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    } finally {
      await d.close();
    }
  });
});

describe('links are resolved before they are compared with the base; credentials stay on it', () => {
  it('a `..` in next or in an item url cannot climb out of a path-prefixed base', async () => {
    const other = await deployment((_req, res) => sendJson(res, 200, EMPTY_PAGE));
    const d = await deployment(async (req, res, { origin }) => {
      const p = pathOf(req);
      if (!p.startsWith('/prefix/')) return void sendJson(res, 200, { secret: 'outside the base' });
      if (p === '/prefix/api/v1/desk') {
        return sendJson(res, 200, {
          count: 3,
          next: `${origin}/prefix/../api/v1/desk?format=api&page=2`,
          previous: null,
          results: [
            {
              url: `${origin}/prefix/api/v1/desk/../../../../admin/1?format=api`,
              pk: 1,
              building: 'S',
              floor: 1,
              number: '1',
              active: true,
              lead: false,
              ergonomic: false,
              held_today: false,
            },
            {
              url: `${origin}/prefix/%2e%2e/api/v1/desk/2?format=api`,
              pk: 2,
              building: 'S',
              floor: 1,
              number: '2',
              active: true,
              lead: false,
              ergonomic: false,
              held_today: false,
            },
            {
              url: `${other.origin}/prefix/api/v1/desk/3?format=api`,
              pk: 3,
              building: 'S',
              floor: 1,
              number: '3',
              active: true,
              lead: false,
              ergonomic: false,
              held_today: false,
            },
          ],
        });
      }
      if (p === '/prefix/api/v1/employee')
        return sendJson(res, 200, {
          count: 2,
          next: `${origin}/prefix/%2E%2E/prefix/../api/v1/employee?page=2`,
          previous: null,
          results: [{ pk: 1 }],
        });
      sendJson(res, 200, EMPTY_PAGE);
    }, '/prefix');
    try {
      const report = await runCheck(contract, opts(d.base, { headers: { authorization: 'Token prefix-secret-1' } }));
      const base = report.violations.filter((v) => v.rule === 'urls.base').map((v) => `${v.endpoint} ${v.pointer}`);
      expect(base.sort()).toEqual([
        'GET /api/v1/desk /next',
        'GET /api/v1/desk /results/0/url',
        'GET /api/v1/desk /results/1/url',
        'GET /api/v1/desk /results/2/url',
        'GET /api/v1/employee /next',
      ]);
      expect(d.seen.map((s) => s.url).filter((u) => !u.startsWith('/prefix/'))).toEqual([]);
      expect(other.seen).toEqual([]);
    } finally {
      await d.close();
      await other.close();
    }
  });

  it('under a prefix, a link a front server would route elsewhere is reported and never requested', async () => {
    const desk = {
      building: 'S',
      floor: 1,
      number: '3',
      active: true,
      lead: false,
      ergonomic: false,
      held_today: false,
    };
    const d = await deployment((req, res, { origin }) => {
      const p = pathOf(req);
      if (p === '/prefix/api/v1/desk')
        return sendJson(res, 200, {
          count: 3,
          // nginx decodes %2F before routing: /prefix/..%2Fother%2Fsteal reaches /other/steal.
          next: `${origin}/prefix/..%2Fother%2Fsteal`,
          previous: null,
          results: [
            { url: `${origin}/prefix/api/v1/desk/..;/..;/admin`, pk: 1, ...desk },
            { url: `${origin}/prefix/api/v1/desk/1%2F..%2F..%2F..%2Fadmin`, pk: 2, ...desk },
          ],
        });
      sendJson(res, 200, EMPTY_PAGE);
    }, '/prefix');
    try {
      const report = await runCheck(
        contract,
        opts(d.base, { only: ['desk'], headers: { authorization: 'Token prefix-secret-2' } }),
      );
      expect(report.violations.filter((v) => v.rule === 'urls.base').map((v) => `${v.pointer} ${v.found}`)).toEqual([
        `/next "${d.origin}/prefix/..%2Fother%2Fsteal"`,
        `/results/0/url ${d.origin}/prefix/api/v1/desk/..;/..;/admin`,
        `/results/1/url ${d.origin}/prefix/api/v1/desk/1%2F..%2F..%2F..%2Fadmin`,
      ]);
      // The reachability probe, then the first page: nothing else.
      expect(d.seen.map((s) => s.url)).toEqual(['/prefix/api/v1/desk', '/prefix/api/v1/desk?format=api']);
    } finally {
      await d.close();
    }
  });

  it('the base URL is the deployment root: …/api/v1/ is refused with a hint', async () => {
    const port = await freePort();
    const r = await runCli(['check', '--base-url', `http://127.0.0.1:${port}/api/v1/`]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      `error: --base-url is the deployment's root, without /api/v1 (the collections are at {base_url}/api/v1/…): try --base-url http://127.0.0.1:${port}`,
    ]);
  });

  it('a deployment answering 401/403 everywhere: exit 2 and a hint about --header', async () => {
    const d = await deployment((req, res) =>
      sendJson(res, req.url?.includes('desk') ? 403 : 401, { detail: 'Authentication credentials were not provided.' }),
    );
    try {
      const report = await runCheck(contract, opts(d.base));
      expect(report.refused).toBe(true);
      expect(exitCode(report)).toBe(2);
      const cli = await runCli(['check', '--base-url', d.base]);
      expect(cli.code).toBe(2);
      expect(cli.stdout, cli.stdout.slice(-600)).toMatch(
        /hint: every collection answered 401\/403: does the deployment need credentials\? Pass them with --header 'Authorization: Token …'/,
      );
    } finally {
      await d.close();
    }
  });
});

describe('arguments and exit codes', () => {
  it.each([
    [['--timeout', '0'], /--timeout.*must be from 1 to 600000 ms/],
    [['--timeout', '99999999999'], /--timeout.*must be from 1 to 600000 ms/],
    [['--max-pages', '0'], /--max-pages.*must be from 1 to 1000000/],
    [['--concurrency', '0'], /--concurrency.*must be from 1 to 64/],
    [['--max-body', '0'], /--max-body.*must be from 1k to 512m/],
    [['--max-body', 'lots'], /--max-body.*a size in bytes/],
    [['--item-urls', '-1'], /--item-urls/],
    [['--header', 'NoColon'], /--header takes "Name: value"/],
    [['--header', 'X-A: one\r\nX-B: two'], /a value cannot hold a line break/],
    [['--header', 'Host: elsewhere'], /set by the checker itself/],
    [['--compare', 'ftp://x'], /--compare must be an http\(s\) URL/],
  ])('%j: exit 2 with one line', async (args, message) => {
    const r = await runCli(['check', '--base-url', 'http://127.0.0.1:9', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--junit creates the folders it names', async () => {
    const dir = await mkdtemp(`${tmpdir()}/junit-`);
    const d = await deployment((_req, res) => sendJson(res, 200, EMPTY_PAGE));
    try {
      const file = `${dir}/reports/ci/junit.xml`;
      const r = await runCli(['check', '--base-url', d.base, '--only', 'employee', '--junit', file]);
      expect(r.code).toBe(0);
      expect((await stat(file)).isFile()).toBe(true);
      await writeFile(`${dir}/is-a-file`, 'x');
      const bad = await runCli(['check', '--base-url', d.base, '--junit', `${dir}/is-a-file/junit.xml`]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/^error: --junit: cannot create the folder/);
    } finally {
      await d.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exit 3 when the checker itself fails: one line why, after the report it had', async () => {
    const dir = await mkdtemp(`${tmpdir()}/junit-`);
    const folder = `${dir}/reports`;
    let swapped = false;
    // While the run is under way, the report's folder becomes a file: the JUnit file cannot be written.
    const d = await deployment((_req, res) => {
      if (!swapped) {
        swapped = true;
        rmSync(folder, { recursive: true, force: true });
        writeFileSync(folder, 'not a folder any more');
      }
      sendJson(res, 200, EMPTY_PAGE);
    });
    try {
      const r = await runCli(['check', '--base-url', d.base, '--only', 'employee', '--junit', `${folder}/junit.xml`]);
      expect(r.code).toBe(3);
      expect(r.stdout).toMatch(/✓ GET \/api\/v1\/employee/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(
        /^error: the checker failed: cannot write the JUnit report to .*reports\/junit\.xml: .*(ENOTDIR|EEXIST)/,
      );
      expect(await readFile(folder, 'utf8')).toBe('not a folder any more');
    } finally {
      await d.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
