import { cookieValue } from '../django/sessions.js';
import type { HeaderGetter } from '../request.js';
import { Journal } from './journal.js';
import { ScenarioStore } from './scenario-store.js';
import { count } from '../../openapi/words.js';

/**
 * Isolated state per client, for end-to-end tests run in parallel against one stub: a request
 * with `X-Stub-Session: NAME` (or a cookie of that name) gets its own writes, scenarios and
 * journal, made from the snapshot on first use, dropped by a reset of that session or after it
 * has been idle for `idleMs`. At most `max` sessions at a time: past that, a clear refusal.
 */
export interface SessionState<Live> {
  readonly live: Map<string, Live>;
  readonly scenarios: ScenarioStore;
  readonly journal: Journal;
  lastUsed: number;
}

export const SESSION_HEADER = 'x-stub-session';
/** The cookie of the same name (a browser test can set it once for every request of a page). */
export const SESSION_COOKIE = 'X-Stub-Session';

/** The session a request names (its header, else its cookie), if any. */
export function sessionOf(header: HeaderGetter): string | undefined {
  return header(SESSION_HEADER) ?? cookieValue(header('cookie'), SESSION_COOKIE);
}

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

export type SessionLookup<Live> =
  | { readonly ok: true; readonly state: SessionState<Live>; readonly name: string | undefined }
  | { readonly ok: false; readonly status: 400 | 503; readonly detail: string };

export class Sessions<Live> {
  readonly shared: SessionState<Live>;
  readonly #byName = new Map<string, SessionState<Live>>();
  readonly #max: number;
  readonly #idleMs: number;
  readonly #journalSize: number;

  /** The lookup of the shared state, made once: most requests name no session. */
  readonly #sharedLookup: SessionLookup<Live>;

  constructor(opts: { max: number; idleMs: number; journalSize: number }) {
    this.#max = opts.max;
    this.#idleMs = opts.idleMs;
    this.#journalSize = opts.journalSize;
    this.shared = this.#fresh(0);
    this.#sharedLookup = { ok: true, state: this.shared, name: undefined };
  }

  #fresh(now: number): SessionState<Live> {
    return { live: new Map(), scenarios: new ScenarioStore(), journal: new Journal(this.#journalSize), lastUsed: now };
  }

  /** The state of a session (made on first use), the shared one without a name. */
  get(name: string | undefined, now: number): SessionLookup<Live> {
    if (name === undefined) return this.#sharedLookup;
    if (!NAME.test(name))
      return { ok: false, status: 400, detail: 'a session name is 1 to 64 letters, digits, ".", "_" or "-"' };
    for (const [n, s] of this.#byName) if (now - s.lastUsed > this.#idleMs) this.#byName.delete(n);
    let state = this.#byName.get(name);
    if (state === undefined) {
      if (this.#byName.size >= this.#max)
        return {
          ok: false,
          status: 503,
          detail: `${count(this.#max, 'session')} ${this.#max === 1 ? 'is' : 'are'} open already (the --max-sessions bound): reset one (POST /__stub/reset with its ${SESSION_HEADER}) or wait for one to be idle ${Math.round(this.#idleMs / 1000)} s`,
        };
      state = this.#fresh(now);
      this.#byName.set(name, state);
    }
    state.lastUsed = now;
    return { ok: true, state, name };
  }

  /** Drops a session (its next request starts from the snapshot again). */
  drop(name: string): void {
    this.#byName.delete(name);
  }

  get names(): string[] {
    return [...this.#byName.keys()];
  }
}
