/**
 * What the desk-reservation API does that its spec cannot say: the deployment's own create (200,
 * `created` or `desk_held`, never ModelViewSet's 201), the cancel, the four reports, the list
 * action of employees and the token logins. Each function is named after the operationId it
 * answers; `undefined` leaves the stub's own answer. The state is the stub's: a reservation made
 * here shows in later lists, pages and items.
 *
 * In a project of your own: `import type { Handlers } from 'workplace-admin-stub';`.
 */
import type { CollectionAccess, HandlerContext, Handlers } from '../../src/index.js';

type Row = Record<string, unknown>;

/** Desks go by number alone (the deployment's desk numbers are unique across floors). */
function deskByNumber(desks: CollectionAccess, number: unknown): Row | undefined {
  return desks.all().find((d) => d.number === String(number));
}

const BUILDINGS: Record<string, string> = { S: 'Schaefers', P: 'Park Place' };
const deskLabel = (r: Row) =>
  `${BUILDINGS[String(r.desk_building)] ?? r.desk_building} ${r.desk_floor}F ${r.desk_number}`;

/** "7h30m", as the deployment writes a duration. */
function hours(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  return `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}

/**
 * The reports' range: "YYYY-MM-DD HH:mm" (Pacific time), or last month when empty, as the
 * deployment reads `startDateTime` and `endDateTime`.
 */
function range(body: Row, ctx: HandlerContext): { start: number; end: number } {
  const parse = (v: unknown) =>
    typeof v === 'string' && v !== '' ? Date.parse(`${v.replace(' ', 'T')}:00-08:00`) : undefined;
  const now = ctx.now();
  const firstOfMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 8);
  const firstOfLast = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1, 8);
  return { start: parse(body.startDateTime) ?? firstOfLast, end: parse(body.endDateTime) ?? firstOfMonth };
}

/** Every reservation that overlaps the range (ended ones only: an open one has no length yet). */
function overlapping(ctx: HandlerContext, body: Row) {
  const { start, end } = range(body, ctx);
  return ctx
    .collection('deskreservation')
    .all()
    .flatMap((r) => {
      if (typeof r.check_out !== 'string') return [];
      const from = Math.max(start, Date.parse(String(r.check_in)));
      const to = Math.min(end, Date.parse(r.check_out));
      return to > from ? [{ r, from, ms: to - from }] : [];
    });
}

/**
 * A time as the deployment's DateTimeField writes it: in its TIME_ZONE (America/Los_Angeles),
 * with the offset, microseconds only when there are any ("2026-11-27T08:00:00-08:00").
 */
function pacific(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Los_Angeles',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const ms = at.getUTCMilliseconds();
  const fraction = ms === 0 ? '' : `.${String(ms).padStart(3, '0')}000`;
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).slice(3);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${fraction}${offset}`;
}

const day = (ms: number) => new Date(ms - 8 * 3_600_000).toISOString().slice(0, 10);

export default {
  createDeskReservation(req, ctx) {
    const body = req.body as Row;
    const desks = ctx.collection('desk');
    const reservations = ctx.collection('deskreservation');
    const desk = deskByNumber(desks, body.desk_number);
    if (desk === undefined) return ctx.notFound('No Desk matches the given query.');
    const current = reservations.all().find((r) => r.desk_number === desk.number && r.check_out === null);
    if (current) return ctx.ok({ ...reservations.represent(current), created: false });
    if (desk.held_today === true) return ctx.ok({ desk_number: desk.number, desk_held: true });
    const employee = ctx.collection('employee').get(Number(body.employee_pk));
    const made = reservations.create({
      employee_pk: body.employee_pk,
      employee_name: employee?.name ?? '',
      desk_building: desk.building,
      desk_floor: String(desk.floor),
      desk_number: desk.number,
      check_in: pacific(ctx.now()),
      check_out: null,
    });
    return ctx.ok({ ...reservations.represent(made), created: true });
  },

  cancelDeskReservation(req, ctx) {
    const reservations = ctx.collection('deskreservation');
    // The pk as Django reads it (`07` is 7). The deployment's own code crashes where there is
    // none (a 500, not imitated): a 404 here.
    const pk = reservations.lookup(req.params.pk ?? '');
    if (pk === undefined || reservations.get(pk) === undefined)
      return ctx.notFound('No DeskReservation matches the given query.');
    const ended = reservations.update(pk, { check_out: pacific(ctx.now()) });
    return ended && ctx.ok(reservations.represent(ended));
  },

  listSimpleEmployees(_req, ctx) {
    return ctx.ok(
      ctx
        .collection('employee')
        .all()
        .map(({ pk, name, legal_name, title, is_expense_approver }) => ({
          pk,
          name,
          legal_name,
          title,
          is_expense_approver,
        })),
    );
  },

  deskSummaryReport(req, ctx) {
    const out: Record<string, { total_hours: string; days_utilized: number; most_frequent_employee: string }> = {};
    const lines = overlapping(ctx, req.body as Row);
    for (const desk of ctx.collection('desk').all()) {
      const own = lines.filter((l) => l.r.desk_number === desk.number);
      const longest = own.reduce<(typeof own)[number] | undefined>((a, b) => (a && a.ms >= b.ms ? a : b), undefined);
      out[`${BUILDINGS[String(desk.building)]} ${desk.floor}F ${desk.number}`] = {
        total_hours: hours(own.reduce((n, l) => n + l.ms, 0)),
        days_utilized: new Set(own.map((l) => day(l.from))).size,
        most_frequent_employee: String(longest?.r.employee_name ?? ''),
      };
    }
    return ctx.ok(out);
  },

  deskDetailReport(req, ctx) {
    const body = req.body as Row;
    const pks = new Set((body.desks as number[] | undefined) ?? []);
    const numbers = new Set(
      ctx
        .collection('desk')
        .all()
        .filter((d) => pks.has(Number(d.pk)))
        .map((d) => d.number),
    );
    const out: Record<string, Row> = {};
    for (const l of overlapping(ctx, body).filter((x) => numbers.has(x.r.desk_number)))
      out[String(l.r.pk)] = {
        employee: l.r.employee_name,
        desk: deskLabel(l.r),
        day: day(l.from),
        total_hours: hours(l.ms),
      };
    return ctx.ok(out);
  },

  employeeSummaryReport(req, ctx) {
    const out: Record<string, { total_hours: string; days_utilized: number; most_frequent_desk: string }> = {};
    const lines = overlapping(ctx, req.body as Row);
    for (const employee of ctx.collection('employee').all()) {
      const own = lines.filter((l) => l.r.employee_pk === employee.pk);
      const longest = own.reduce<(typeof own)[number] | undefined>((a, b) => (a && a.ms >= b.ms ? a : b), undefined);
      out[String(employee.name)] = {
        total_hours: hours(own.reduce((n, l) => n + l.ms, 0)),
        days_utilized: new Set(own.map((l) => day(l.from))).size,
        most_frequent_desk: longest ? deskLabel(longest.r) : '',
      };
    }
    return ctx.ok(out);
  },

  employeeDetailReport(req, ctx) {
    const body = req.body as Row;
    const pks = new Set((body.employees as number[] | undefined) ?? []);
    const out: Record<string, Row> = {};
    for (const l of overlapping(ctx, body).filter((x) => pks.has(Number(x.r.employee_pk))))
      out[String(l.r.pk)] = {
        employee: l.r.employee_name,
        desk: deskLabel(l.r),
        day: day(l.from),
        total_hours: hours(l.ms),
      };
    return ctx.ok(out);
  },

  obtainAuthToken(req, ctx) {
    return ctx.ok({ token: tokenOf(String((req.body as Row).username)) });
  },

  obtainAuthTokenWithPassword(req, ctx) {
    const { username, password } = req.body as { username: string; password: string };
    if (username === '' || password === '')
      return ctx.badRequest({ non_field_errors: ['Unable to log in with provided credentials.'] });
    return ctx.ok({ token: tokenOf(username) });
  },
} satisfies Handlers;

/** A token of 40 hex digits, the same for the same username (a stub has no users to store it with). */
function tokenOf(username: string): string {
  let h = 0x811c9dc5;
  let out = '';
  for (let round = 0; out.length < 40; round++)
    for (const ch of `${round}:${username}`) {
      h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
      out = `${out}${(h & 0xf).toString(16)}`.slice(0, 40);
    }
  return out;
}
