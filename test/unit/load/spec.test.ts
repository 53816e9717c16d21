import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { LoadError } from '../../../src/load/errors.js';
import { bundleSpec, type LoadedSpec, loadSpec, whileValidating } from '../../../src/load/spec.js';
import { readOperations } from '../../../src/openapi/operations.js';
import { follow } from '../../../src/openapi/pointer.js';
import { scanDocument } from '../../../src/openapi/document-scan.js';
import { ROOT } from '../../cli-helpers.js';
import { DEPLOYMENT_ROUTER_ORDER, DOCUMENT_COLLECTIONS, DOCUMENT_DESK_FIELDS, FIXTURES, SPEC } from '../../helpers.js';

const { doc } = await loadSpec(SPEC);
const { operations, problems } = readOperations(doc, SPEC);
const node = (pointer: string) => follow(doc, pointer).node as Record<string, unknown>;
const pathItem = (p: string) => (doc.paths as Record<string, Record<string, unknown>>)[p] ?? {};

/** The deployment's LargeResultsSetPagination (page_size 1000, `page_size` parameter): meal stops, job titles. */
const LARGE_PAGES = new Set(['mealstop', 'jobtitle']);
/** What the deployment's querysets give an anonymous client beyond nothing: active desks; current reservations. */
const ANONYMOUS_SEES = new Set(['desk', 'deskreservation']);
/** Querysets whose anonymous answer is another model's empty queryset (`Expense.objects.none()`). */
const ANONYMOUS_MODEL: Record<string, string> = { 'expense-statement': 'Expense', 'expense-month': 'Expense' };
/** The deployment's model where it is not the item schema's name (its 404 "No <Model> matches"). */
const MODEL_NAME: Record<string, string> = { responsibilitytags: 'Tag', mealstop: 'Stop', review: 'PerformanceReview' };

describe('the authored spec against the interface document and the deployment', () => {
  it('is valid OpenAPI 3.1 (swagger-parser)', async () => {
    const api = (await SwaggerParser.validate(SPEC)) as { openapi: string };
    expect(api.openapi).toMatch(/^3\.1\./);
    expect(problems).toEqual([]);
  });

  it('has the 20 collections of §4 as list paths, each with its {pk} item path, the API root, / and /favicon.ico', () => {
    const collections = DOCUMENT_COLLECTIONS.map((r) => `/api/v1/${r}`);
    expect(operations.lists.map((l) => l.path).sort()).toEqual([...collections].sort());
    expect(Object.keys(doc.paths as object).sort()).toEqual(
      [...collections, ...collections.map((c) => `${c}/{pk}`), '/api/', '/', '/favicon.ico'].sort(),
    );
    // The deployment's router registers them in this order; the API root lists them so.
    expect(operations.lists.map((l) => l.resource)).toEqual(
      DEPLOYMENT_ROUTER_ORDER.filter((r) => (DOCUMENT_COLLECTIONS as readonly string[]).includes(r)),
    );
    // ModelViewSets: list and create on the collection; retrieve, update, partial update, destroy on the item.
    for (const c of collections) {
      expect(Object.keys(pathItem(c))).toEqual(['get', 'post']);
      expect(Object.keys(pathItem(`${c}/{pk}`))).toEqual(['parameters', 'get', 'put', 'patch', 'delete']);
      const list = operations.routes.find((r) => r.path === c);
      const item = operations.itemRouteOf.get(c);
      expect([list?.kind, ...(list?.methods.keys() ?? [])]).toEqual(['list', 'GET', 'POST']);
      expect([item?.kind, item?.path, ...(item?.methods.keys() ?? [])]).toEqual([
        'detail',
        `${c}/{pk}`,
        'GET',
        'PUT',
        'PATCH',
        'DELETE',
      ]);
      expect(operations.detailOf.get(c)?.pkIsInteger).toBe(true);
    }
    expect(operations.routes).toHaveLength(collections.length * 2 + 2);
    expect(operations.customs.map((c) => [c.path, c.scope, c.djangoView])).toEqual([
      ['/', 'view', true],
      ['/favicon.ico', 'view', true],
    ]);
  });

  it('the API root at /api/, DefaultRouter’s, GET only, with the collections’ formats', () => {
    expect(Object.keys(pathItem('/api/'))).toEqual(['get']);
    expect(operations.root).toMatchObject({ path: '/api/', operationId: 'apiRoot', anonymous: true });
    expect(operations.root?.formats).toEqual(['json', 'api']);
    expect(node('#/paths/~1api~1/get')['x-api-root']).toBe(true);
    const root = node('#/components/schemas/ApiRoot');
    expect(root).toMatchObject({ type: 'object', additionalProperties: { type: 'string', format: 'uri' } });
  });

  it.each([
    ['/', '/api/'],
    ['/favicon.ico', '/static/favicon.ico'],
  ])('%s: the deployment’s Django RedirectView, 302 to %s, no authentication', (p, location) => {
    expect(Object.keys(pathItem(p))).toEqual(['get']);
    const view = operations.customs.find((c) => c.path === p);
    expect(view?.djangoView).toBe(true);
    expect(view?.anonymous).toBe(true);
    expect(view?.success?.status).toBe('302');
    expect(view?.success?.headers).toEqual({ location });
    expect(node(view?.pointer ?? '').security).toEqual([]);
  });

  it.each(DOCUMENT_COLLECTIONS)(
    '/api/v1/%s: operationId, tag, format (json, api) and page, the envelope, 401 Token, 404 {detail}, its queryset',
    (resource) => {
      const list = operations.lists.find((l) => l.resource === resource);
      expect(list).toBeDefined();
      const op = node(list?.pointer ?? '');
      expect(op.operationId).toMatch(/^list[A-Z]/);
      expect((op.tags as string[]).length).toBeGreaterThan(0);
      // The deployment's renderers in its order: JSON, then the browsable API (negotiated as text/html).
      expect(list?.formats).toEqual(['json', 'api']);
      expect(list?.renderers).toEqual([
        { format: 'json', mediaType: 'application/json' },
        { format: 'api', mediaType: 'text/html' },
      ]);
      expect(Object.keys(list?.queryParams ?? {}).sort()).toEqual(
        LARGE_PAGES.has(resource) ? ['format', 'page', 'page_size'] : ['format', 'page'],
      );
      // AllowAny: an anonymous client may list; a bad token is 401 with WWW-Authenticate: Token.
      expect(list?.anonymous).toBe(true);
      expect(Object.keys(list?.responses ?? {})).toEqual(['200', '401', '404']);
      expect(node(list?.responses['401']?.schemaPointer ?? '').required).toEqual(['detail']);
      // The 200 answer is the one generic envelope (allOf) narrowed to the resource's item.
      const schema = node(list?.responses['200']?.schemaPointer ?? '');
      const allOf = schema.allOf as Record<string, unknown>[];
      expect(allOf.some((s) => s.$ref === '#/components/schemas/ListEnvelope')).toBe(true);
      expect(list?.responses['404']?.schemaPointer).toBeDefined();
      expect(node(list?.responses['404']?.schemaPointer ?? '').required).toEqual(['detail']);
      // What the deployment's queryset shows an anonymous client, and the model its 404 names.
      expect(list?.queryset.anonymous).toBe(ANONYMOUS_SEES.has(resource) ? 'all' : 'none');
      expect(list?.queryset.anonymousModel).toBe(ANONYMOUS_MODEL[resource]);
      expect(list?.modelName).toBe(MODEL_NAME[resource] ?? list?.itemName);
      // Its writes: create on the list, update, partial update and destroy on the item.
      expect(operations.writes.filter((w) => w.collectionPath === list?.path).map((w) => [w.method, w.target])).toEqual(
        [
          ['POST', 'list'],
          ['PUT', 'detail'],
          ['PATCH', 'detail'],
          ['DELETE', 'detail'],
        ],
      );
    },
  );

  it('the large pagination class: page_size, 1,000 by default, no maximum', () => {
    for (const resource of LARGE_PAGES) {
      const list = operations.lists.find((l) => l.resource === resource);
      expect(node(list?.queryParams.page_size ?? '')).toEqual({ type: 'integer', minimum: 1, default: 1000 });
    }
  });

  it('the envelope: count >= 0, next and previous absolute uri or null, all four required (§2.1)', () => {
    const env = node('#/components/schemas/ListEnvelope');
    expect(env.required).toEqual(['count', 'next', 'previous', 'results']);
    const props = env.properties as Record<string, Record<string, unknown>>;
    expect(props.count).toMatchObject({ type: 'integer', minimum: 0 });
    for (const link of ['next', 'previous'])
      expect(props[link]).toMatchObject({ type: ['string', 'null'], format: 'uri' });
  });

  it('the desk (§2.2): nine required fields with their shapes, the deployment’s model where §2.2 is silent', () => {
    const desk = node('#/components/schemas/Desk');
    expect(desk.required).toEqual([...DOCUMENT_DESK_FIELDS]);
    const p = desk.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(p)).toEqual(desk.required);
    expect(p.url).toMatchObject({ type: 'string', format: 'uri', readOnly: true });
    expect(new RegExp(p.url?.pattern as string).test('https://api.team.lcog.org/api/v1/desk/12?format=api')).toBe(true);
    expect(p.pk).toMatchObject({ type: 'integer', readOnly: true });
    // "A single upper-case letter" (§2.2); the deployment's choices: S (Schaefers), P (Park Place).
    expect(p.building).toMatchObject({ type: 'string', enum: ['S', 'P'] });
    // PositiveSmallIntegerField on PostgreSQL.
    expect(p.floor).toMatchObject({ type: 'integer', minimum: 0, maximum: 32767 });
    // Digits, then letters (§2.2); CharField(max_length=10).
    expect(p.number).toMatchObject({ type: 'string', pattern: '^[0-9]+[A-Za-z]*$', maxLength: 10 });
    for (const flag of ['active', 'lead', 'ergonomic', 'held_today'])
      expect(p[flag]).toMatchObject({ type: 'boolean' });
    // A property of the model, read-only in the serializer.
    expect(p.held_today).toMatchObject({ readOnly: true, 'x-computed': true });
    const detail = operations.detailOf.get('/api/v1/desk');
    expect(detail?.itemPointer).toBe('#/components/schemas/Desk');
    expect(detail?.pkIsInteger).toBe(true);
    // The viewset's queryset: active desks, Meta.ordering building, floor, number.
    const list = operations.lists.find((l) => l.resource === 'desk');
    expect(list?.queryset.filter).toEqual({ active: true });
    expect(list?.queryset.ordering).toEqual([
      { field: 'building', desc: false },
      { field: 'floor', desc: false },
      { field: 'number', desc: false },
    ]);
  });

  it('a desk as written (DeskRequest): the model’s fields, number required and unique, its defaults', () => {
    const req = node('#/components/schemas/DeskRequest');
    expect(req.required).toEqual(['number']);
    const p = req.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(p).sort()).toEqual(['active', 'building', 'ergonomic', 'floor', 'lead', 'number']);
    expect(p.building).toMatchObject({ enum: ['S', 'P'], default: 'S' });
    expect(p.building?.['x-enum-descriptions']).toEqual(['Schaefers', 'Park Place']);
    expect(p.floor).toMatchObject({ type: 'integer', minimum: 0, maximum: 32767, default: 1 });
    expect(p.number).toMatchObject({ type: 'string', maxLength: 10, 'x-unique': true });
    expect([p.active?.default, p.lead?.default, p.ergonomic?.default]).toEqual([true, false, false]);
    const desk = operations.writes.filter((w) => w.collectionPath === '/api/v1/desk');
    expect(desk.map((w) => [w.method, w.bodyPointer, Object.keys(w.responses)[0]])).toEqual([
      ['POST', '#/components/schemas/DeskRequest', '201'],
      ['PUT', '#/components/schemas/DeskRequest', '200'],
      ['PATCH', '#/components/schemas/DeskRequest', '200'],
      ['DELETE', undefined, '204'],
    ]);
    // DRF's parsers: JSON, form, multipart.
    expect(desk[0]?.bodyTypes).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
    ]);
    expect(Object.keys(node(`${desk[0]?.pointer ?? ''}/responses/201`).headers as object)).toEqual(['Location']);
  });

  it('the bundled desks: 192 of the deployment, 178 Schaefers and 12 Park Place active, 2 inactive, numbers unique', () => {
    const desks = JSON.parse(readFileSync(path.join(FIXTURES, 'desk.json'), 'utf8')) as {
      building: string;
      number: string;
      active: boolean;
    }[];
    const count = (f: (d: (typeof desks)[number]) => boolean) => desks.filter(f).length;
    expect(desks).toHaveLength(192);
    expect(count((d) => d.active && d.building === 'S')).toBe(178);
    expect(count((d) => d.active && d.building === 'P')).toBe(12);
    expect(count((d) => !d.active)).toBe(2);
    expect(new Set(desks.map((d) => d.number)).size).toBe(192);
    expect(desks.every((d) => d.number.length <= 10 && /^[0-9]+[A-Za-z]*$/.test(d.number))).toBe(true);
  });

  it('the 19 other items: one named schema each, an object with no invented field', () => {
    const others = operations.lists.filter((l) => l.resource !== 'desk');
    expect(others).toHaveLength(19);
    for (const list of others) {
      expect(list.itemPointer).toMatch(/^#\/components\/schemas\/[A-Z][A-Za-z]+$/);
      const item = node(list.itemPointer);
      expect(item.type).toBe('object');
      expect(item.properties).toBeUndefined();
      expect(item.required).toBeUndefined();
      expect(operations.detailOf.get(list.path)?.itemPointer).toBe(list.itemPointer);
    }
    expect(new Set(others.map((l) => l.itemName)).size).toBe(19);
  });

  it('names the production and staging deployments by their hosts (§9.2), and the stub', () => {
    const servers = doc.servers as { url: string; description: string }[];
    expect(servers.map((s) => [s.url, s.description.split(' (')[0]])).toEqual([
      ['https://api.team.lcog.org', 'Production deployment'],
      ['https://api.team-staging.lcog.org', 'Staging deployment'],
      ['http://127.0.0.1:4010', 'This stub, as `npm start` runs it.'],
    ]);
  });

  it('authenticates as the deployment: AllowAny, TokenAuthentication then SessionAuthentication, 401 Token', () => {
    expect(doc.security).toEqual([{}, { tokenAuth: [] }, { sessionAuth: [] }]);
    expect(node('#/components/securitySchemes/tokenAuth')).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      'x-token-keyword': 'Token',
    });
    expect(node('#/components/securitySchemes/sessionAuth')).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'sessionid',
    });
    const unauthorized = node('#/components/responses/Unauthorized');
    expect(unauthorized.headers).toMatchObject({ 'WWW-Authenticate': { schema: { const: 'Token' } } });
    // Every DRF operation declares the 401, the Django views none.
    for (const op of [...operations.all, ...operations.writes]) expect(op.responses['401']).toBeDefined();
    expect(operations.root && node(operations.root.pointer).responses).toHaveProperty('401');
    for (const view of operations.customs) expect(view.responses['401']).toBeUndefined();
  });
});

describe('what a spec uses, gathered as its files are parsed', () => {
  it.each([
    ['the authored spec', SPEC],
    ["the designer's spec", path.join(ROOT, 'test/fixtures/designer/openapi.yaml')],
    ['the mini spec', path.join(ROOT, 'test/fixtures/mini/openapi.yaml')],
  ])('%s: what a walk of the bundled document finds (extensions: those and perhaps more)', async (_name, file) => {
    const spec = await loadSpec(file);
    const walked = scanDocument(spec.doc);
    expect(spec.scan.identifies).toBe(walked.identifies);
    expect(spec.scan.writeOnly).toBe(walked.writeOnly);
    expect(new Set(spec.scan.extensions)).toEqual(new Set([...spec.scan.extensions, ...walked.extensions]));
  });
});

describe('whileValidating', () => {
  const spec = {} as LoadedSpec;
  const invalid = () => new LoadError([{ file: 'openapi.yaml', pointer: '/info', reason: 'invalid' }]);

  it('tells an invalid spec at once: the build is stopped, not waited for', async () => {
    let sawAbort = false;
    const validated = new Promise<'worker'>((_, reject) => setTimeout(() => reject(invalid()), 20));
    // A build that never ends (a fixture still streaming): it is told to stop, and not waited for.
    const build = (_s: LoadedSpec, signal: AbortSignal) =>
      new Promise<string>(() =>
        signal.addEventListener('abort', () => {
          sawAbort = true;
        }),
      );
    await expect(whileValidating({ spec, validated }, build)).rejects.toThrow(LoadError);
    expect(sawAbort).toBe(true);
  });

  it('a build that fails first is told only once validation passed, and not at all if it failed', async () => {
    const late = <T>(f: () => T) =>
      new Promise<T>((resolve, reject) =>
        setTimeout(() => {
          try {
            resolve(f());
          } catch (e) {
            reject(e);
          }
        }, 20),
      );
    const fails = () => Promise.reject(new Error('the build'));
    await expect(whileValidating({ spec, validated: late(() => 'main' as const) }, fails)).rejects.toThrow('the build');
    await expect(
      whileValidating(
        {
          spec,
          validated: late((): 'main' => {
            throw invalid();
          }),
        },
        fails,
      ),
    ).rejects.toThrow(LoadError);
    await expect(whileValidating({ spec, validated: late(() => 'main' as const) }, () => 'built')).resolves.toBe(
      'built',
    );
  });
});

describe('a reload reads the spec again but parses only the files whose text changed', () => {
  it('an unchanged $ref file keeps its parsed value; the edited root is parsed anew', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reuse-spec-'));
    const root = path.join(dir, 'api.yaml');
    const part = path.join(dir, 'part.yaml');
    const rootText = (title: string) =>
      `openapi: 3.1.0\ninfo: {title: ${title}, version: '1'}\npaths:\n  /api/v1/desk:\n    get:\n      responses:\n        '200':\n          description: ok\n          content: {application/json: {schema: {$ref: 'part.yaml#/Thing'}}}\n`;
    await writeFile(root, rootText('one'));
    // A $ref inside the part: the bundler rewrites it in what it is given, never in the kept value.
    const partText = "Thing: {type: object, properties: {o: {$ref: '#/Other'}}}\nOther: {type: string}\n";
    await writeFile(part, partText);
    const first = await loadSpec(root);
    // Nothing changed: the spec loaded before, whole.
    expect(await loadSpec(root, undefined, first)).toBe(first);
    await writeFile(root, rootText('two'));
    const second = await loadSpec(root, undefined, first);
    expect(second).not.toBe(first);
    expect(second.values.get(part)).toBe(first.values.get(part));
    expect(second.values.get(root)).not.toBe(first.values.get(root));
    expect((second.doc.info as { title: string }).title).toBe('two');
    expect(second.values.get(part)).toEqual({
      Thing: { type: 'object', properties: { o: { $ref: '#/Other' } } },
      Other: { type: 'string' },
    });
    expect(second.doc).toEqual((await loadSpec(root)).doc);
  });

  it('a spec loaded for no reload keeps no parsed value, hands the bundler its own, and bundles the same document', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'reuse-none-'));
    const root = path.join(dir, 'api.yaml');
    await writeFile(
      root,
      "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /api/v1/desk:\n    get:\n      responses:\n        '200': {$ref: 'part.yaml#/Ok'}\n",
    );
    await writeFile(
      path.join(dir, 'part.yaml'),
      "Ok: {description: ok, content: {application/json: {schema: {$ref: '#/Thing'}}}}\nThing: {type: object}\n",
    );
    const kept = await bundleSpec(root, undefined, undefined, 'inline', true);
    const once = await bundleSpec(root, undefined, undefined, 'inline', false);
    await Promise.all([kept.validated, once.validated]);
    expect(once.spec.values.size).toBe(0);
    expect(kept.spec.values.size).toBe(2);
    expect(once.spec.doc).toEqual(kept.spec.doc);
    // The kept values are the files as written: the bundler changed only its copies.
    expect(kept.spec.values.get(path.join(dir, 'part.yaml'))).toEqual({
      Ok: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/Thing' } } } },
      Thing: { type: 'object' },
    });
    // A reload after a load that kept nothing parses again, and gives the same.
    expect((await loadSpec(root, undefined, once.spec)).doc).toEqual(kept.spec.doc);
  });
});

describe('loadSpec: a spec of several files, bundled, or every problem with its place', () => {
  const head = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\n";
  const ok = (schema: string) =>
    `${head}paths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content: {application/json: {schema: ${schema}}}\n`;

  /** The files written to a folder of their own; the root loaded: its problems as `file pointer: reason`. */
  async function load(files: Record<string, string>): Promise<{ spec?: LoadedSpec; problems: string[]; dir: string }> {
    const dir = await mkdtemp(path.join(tmpdir(), 'spec-'));
    for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
    try {
      return { spec: await loadSpec(path.join(dir, 'openapi.yaml')), problems: [], dir };
    } catch (e) {
      if (!(e instanceof LoadError)) throw e;
      const local = (s: string) => s.replaceAll(`${dir}/`, '');
      return {
        problems: e.problems.map(
          (p) => `${local(p.file)} ${p.line === undefined ? p.pointer : `${p.line}:${p.column}`}: ${local(p.reason)}`,
        ),
        dir,
      };
    }
  }

  it('every file the root reaches, the root first; one document of internal $refs; what the files use', async () => {
    const { spec, problems, dir } = await load({
      'openapi.yaml': ok("{$ref: 'schemas.yaml#/Thing'}"),
      'schemas.yaml':
        "Thing: {type: object, properties: {n: {$ref: '#/Name'}}, x-kind: thing}\nName: {type: string, format: email}\n",
    });
    expect(problems).toEqual([]);
    expect(spec?.files).toEqual([path.join(dir, 'openapi.yaml'), path.join(dir, 'schemas.yaml')]);
    expect(JSON.stringify(spec?.doc)).not.toMatch(/schemas\.yaml/);
    expect(spec?.scan).toMatchObject({ extensions: ['x-kind'], formats: ['email'] });
    expect([...(spec?.texts.keys() ?? [])]).toEqual(spec?.files);
  });

  it.each<[string, Record<string, string>, string[]]>([
    ['no root', {}, ['openapi.yaml : cannot read the file (ENOENT)']],
    [
      'a root that is no YAML: every error placed',
      { 'openapi.yaml': `${head}paths: {a: [}\n` },
      [
        'openapi.yaml line 3:13: Flow sequence in block collection must be sufficiently indented and end with a ]',
        'openapi.yaml line 3:14: Flow map in block collection must be sufficiently indented and end with a }',
      ],
    ],
    [
      'a $ref to a file that does not exist',
      { 'openapi.yaml': ok("{$ref: 'gone.yaml'}") },
      [
        'gone.yaml : cannot read the file (ENOENT), named by $ref "gone.yaml" in openapi.yaml at /paths/~1a/get/responses/200/content/application~1json/schema/$ref',
      ],
    ],
    [
      'a $ref out of the folder: told where it stands',
      { 'openapi.yaml': ok("{$ref: '../elsewhere.yaml'}") },
      [
        expect.stringMatching(
          /^openapi\.yaml \/paths\/~1a\/get\/responses\/200\/content\/application~1json\/schema\/\$ref: \$ref "\.\.\/elsewhere\.yaml" resolves to .*elsewhere\.yaml, outside the spec's folder/,
        ) as unknown as string,
      ],
    ],
    [
      'a remote $ref',
      { 'openapi.yaml': ok("{$ref: 'https://example.org/s.yaml'}") },
      [
        'openapi.yaml /paths/~1a/get/responses/200/content/application~1json/schema/$ref: $ref "https://example.org/s.yaml" names a remote document (https://example.org/s.yaml): only files inside the spec\'s folder are read, nothing from the network',
      ],
    ],
    [
      'invalid OpenAPI in a file the root reaches: placed in that file',
      {
        'openapi.yaml': `${head}paths:\n  /a: {$ref: 'paths.yaml#/A'}\n`,
        'paths.yaml': "A:\n  get:\n    responses:\n      '200': {content: {}}\n",
      },
      ['paths.yaml 4:7: a response lacks the required field `description`'],
    ],
  ])('%s', async (_name, files, want) => {
    expect((await load(files)).problems).toEqual(want);
  });
});
