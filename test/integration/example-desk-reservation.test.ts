// examples/desk-reservation (#32): the kiosk's reservation flow of the lcog-team app, walked over
// HTTP against the README's own command and through MSW with the same handlers module, the two
// transcripts byte for byte the same.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/adapters/msw.js';
import handlers from '../../examples/desk-reservation/handlers.js';
import { ROOT, startCli } from '../cli-helpers.js';
import { stateFor, testConfig } from '../helpers.js';

const EXAMPLE = path.join(ROOT, 'examples/desk-reservation');
const SPEC = path.join(EXAMPLE, 'openapi.yaml');
const FIXTURES = path.join(EXAMPLE, 'fixtures');
const NOW = '2026-11-27T16:00:00.000Z';
/** NOW as the deployment's DateTimeField writes it (TIME_ZONE America/Los_Angeles). */
const PACIFIC_NOW = '2026-11-27T08:00:00-08:00';

interface Answer {
  status: number;
  type: string | null;
  text: string;
}
type Send = (method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<Answer>;

function sender(base: string, doFetch: (r: Request) => Promise<Response>): Send {
  return async (method, url, body, headers = {}) => {
    const res = await doFetch(
      new Request(`${base}${url}`, {
        method,
        headers: {
          origin: 'http://localhost:9000',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    // Each arm names its own origin in `url`s: the rest must be the same bytes.
    const text = (await res.text()).replaceAll(base, 'http://stub');
    return { status: res.status, type: res.headers.get('content-type'), text };
  };
}

const json = (a: Answer) => JSON.parse(a.text) as Record<string, unknown> & { results: Record<string, unknown>[] };

/** The kiosk's flow, as the app sends it; each step's answer kept for the comparison. */
async function walk(send: Send): Promise<Answer[]> {
  const log: Answer[] = [];
  const step = async (method: string, url: string, body?: unknown, headers?: Record<string, string>) => {
    const a = await send(method, url, body, headers);
    log.push(a);
    return a;
  };

  // The floor plan: desks of building S, all on the page the app reads.
  const desks = json(await step('GET', '/api/v1/desk'));
  const s1 = desks.results.filter((d) => d.building === 'S' && d.floor === 1);
  expect(s1.length).toBeGreaterThan(50);
  expect(desks.results.length).toBe(desks.count);

  // Reservations now current (check_out null), and the bare array of the name picker.
  const before = json(await step('GET', '/api/v1/deskreservation'));
  expect(before.results.every((r) => r.check_out === null)).toBe(true);
  const names = await step('GET', '/api/v1/employee/simple_list');
  const people = JSON.parse(names.text) as { pk: number; name: string }[];
  expect(Array.isArray(people)).toBe(true);
  expect(Object.keys(people[0] ?? {})).toEqual(['pk', 'name', 'legal_name', 'title', 'is_expense_approver']);
  expect(JSON.parse((await step('GET', '/api/v1/trustedip')).text)).toBe(true);

  // Reserve a free desk: the deployment's own create, 200 with "created": true.
  const reserved = new Set(before.results.map((r) => r.desk_number));
  const free = s1.find((d) => !reserved.has(d.number) && d.held_today === false);
  const [ada, alan] = people;
  const made = await step('POST', '/api/v1/deskreservation', {
    employee_pk: ada?.pk,
    building: 'S',
    floor: '1',
    desk_number: free?.number,
  });
  expect(made.status).toBe(200);
  const reservation = json(made);
  expect(reservation).toMatchObject({
    employee_pk: ada?.pk,
    employee_name: ada?.name,
    desk_building: 'S',
    desk_floor: '1',
    desk_number: free?.number,
    check_in: PACIFIC_NOW,
    check_out: null,
    created: true,
  });

  // Listed; the same desk again answers its reservation with "created": false.
  const listed = json(await step('GET', '/api/v1/deskreservation'));
  expect(listed.results.map((r) => r.pk)).toContain(reservation.pk);
  const again = json(
    await step('POST', '/api/v1/deskreservation', {
      employee_pk: alan?.pk,
      building: 'S',
      floor: '1',
      desk_number: free?.number,
    }),
  );
  expect(again).toMatchObject({ pk: reservation.pk, employee_name: ada?.name, created: false });

  // A desk held today for someone else is refused.
  const held = s1.find((d) => d.held_today === true && !reserved.has(d.number));
  const refused = await step('POST', '/api/v1/deskreservation', {
    employee_pk: alan?.pk,
    building: 'S',
    floor: '1',
    desk_number: held?.number,
  });
  expect(json(refused)).toEqual({ desk_number: held?.number, desk_held: true });

  // Cancel: check_out set, and the reservation leaves the list (its pk read as Django reads it).
  const cancelled = await step('PUT', `/api/v1/deskreservation/0${String(reservation.pk)}/cancel-reservation`);
  expect(cancelled.status).toBe(200);
  expect(json(cancelled)).toMatchObject({ pk: reservation.pk, check_out: PACIFIC_NOW });
  const after = json(await step('GET', '/api/v1/deskreservation'));
  expect(after.results.map((r) => r.pk)).not.toContain(reservation.pk);
  expect(after.count).toBe(before.count);

  // The reports' page: a token, the user, then a report keyed by desk.
  const login = await step('POST', '/api/api-token-auth-password/', { username: 'kiosk', password: 'kiosk' });
  const token = String(json(login).token);
  expect(token).toMatch(/^[0-9a-f]{40}$/);
  const auth = { authorization: `Token ${token}` };
  expect(json(await step('GET', '/api/v1/current-user/', undefined, auth))).toHaveProperty(
    'can_view_desk_reservation_reports',
  );
  const report = json(
    await step('POST', '/api/v1/deskreservation/desk-summary-report', { startDateTime: '', endDateTime: '' }, auth),
  );
  expect(Object.keys(report)).toHaveLength(desks.count as number);
  return log;
}

describe('examples/desk-reservation: the kiosk flow', () => {
  let cli: { child: ChildProcess; url: string; output: () => string };
  beforeAll(async () => {
    cli = await startCli([
      'serve',
      '--port',
      '0',
      '--spec',
      SPEC,
      '--fixtures',
      FIXTURES,
      '--handlers',
      path.join(EXAMPLE, 'handlers.ts'),
      '--now',
      NOW,
    ]);
  }, 60_000);
  afterAll(() => {
    cli.child.kill();
  });

  it('walks over HTTP and through MSW, the same bytes at every step', async () => {
    const overHttp = await walk(sender(cli.url, (r) => fetch(r)));

    const { snapshot } = await stateFor(testConfig({ specFile: SPEC, fixturesDir: FIXTURES }));
    const msw = setupServer(...createHandlers({ snapshot, handlers, now: new Date(NOW) }));
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const throughMsw = await walk(sender('http://localhost:4010', (r) => fetch(r)));
      expect(throughMsw).toEqual(overHttp);
    } finally {
      msw.close();
    }
  });

  it('tells at start-up where each operation is answered from', () => {
    const out = cli.output();
    expect(out).toMatch(/createDeskReservation\s+handler/);
    expect(out).toMatch(/cancelDeskReservation\s+handler/);
  });
});
