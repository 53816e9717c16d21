// Starts and stops the reference deployment (test/reference/drf/) from tests. The default profile (the
// deployment) runs on Django 4.2 + DRF 3.16.0 unpacked by install-deps.sh into test/reference/.pydeps
// (REF_PYDEPS overrides); the designer profile on the system's Debian Django 3.2 + DRF 3.14.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Always Debian's interpreter: a pyenv python3 without Django may come first on PATH. (REF_PYTHON overrides, for tests of the skip.) */
export const PYTHON = process.env.REF_PYTHON || '/usr/bin/python3';
export const SERVE_PY = fileURLToPath(new URL('./drf/serve.py', import.meta.url));
/** Where install-deps.sh unpacks Django 4.2 + DRF 3.16.0 for the default profile. */
export const PYDEPS = process.env.REF_PYDEPS || fileURLToPath(new URL('./.pydeps', import.meta.url));
const INSTALL = 'bash test/reference/install-deps.sh';

export type Profile = 'default' | 'designer';
type Availability = { ok: true } | { ok: false; why: string };
const availability = new Map<Profile, Availability>();

function probe(pythonPath: string | undefined): ReturnType<typeof spawnSync> {
  const env = { ...process.env, ...(pythonPath ? { PYTHONPATH: pythonPath } : {}) };
  return spawnSync(
    PYTHON,
    ['-c', 'import django, rest_framework; print(django.get_version(), rest_framework.VERSION)'],
    { encoding: 'utf8', timeout: 15_000, env },
  );
}

/**
 * Whether the profile's reference can run (checked once): the deployment needs the unpacked Django 4.2 +
 * DRF 3.16 (install-deps.sh), the designer profile /usr/bin/python3's own Django and DRF.
 */
export function referenceAvailable(profile: Profile = 'default'): Availability {
  const known = availability.get(profile);
  if (known) return known;
  let a: Availability;
  if (profile === 'default' && !existsSync(`${PYDEPS}/.complete`))
    a = { ok: false, why: `no Django 4.2 + DRF 3.16 in ${PYDEPS} (run: ${INSTALL})` };
  else {
    const p = probe(profile === 'default' ? PYDEPS : undefined);
    const out = String(p.stdout ?? '').trim();
    if (p.error) a = { ok: false, why: `${PYTHON} cannot run (${p.error.message}); install python3` };
    else if (p.status !== 0)
      a = {
        ok: false,
        why: `${PYTHON} cannot import django and rest_framework (${profile === 'default' ? INSTALL : 'apt-get install -y python3-djangorestframework python3-django-filters'}): ${
          String(p.stderr ?? '')
            .trim()
            .split('\n')
            .pop() ?? ''
        }`,
      };
    else if (profile === 'default' && !/^4\.2\.\d+ 3\.16\.\d+$/.test(out))
      a = { ok: false, why: `${PYDEPS} holds Django + DRF ${out}, not 4.2 + 3.16 (run: ${INSTALL})` };
    else a = { ok: true };
  }
  availability.set(profile, a);
  return a;
}

/** The versions the profile's reference runs, e.g. "4.2.21 3.16.0" (for messages). */
export function referenceVersions(profile: Profile = 'default'): string {
  return String(probe(profile === 'default' ? PYDEPS : undefined).stdout ?? '').trim();
}

export interface ReferenceOptions {
  /** PAGE_SIZE (REF_PAGE_SIZE); 100 by default. */
  pageSize?: number;
  /** USE_X_FORWARDED_HOST and SECURE_PROXY_SSL_HEADER (REF_TRUST_PROXY=1). */
  trustProxy?: boolean;
  /** ALLOWED_HOSTS (REF_ALLOWED_HOSTS); ['*'] by default. */
  allowedHosts?: string[];
  /** The fixtures folder (REF_FIXTURES); test/reference/fixtures/ (desks as the deployment holds them) by default. */
  fixturesDir?: string;
  /** The deployment's FRONTEND_DOMAIN (REF_FRONTEND_ORIGIN): every answer's CORS headers name it; none without. */
  frontendOrigin?: string;
  /** Valid token keys, one user each (REF_TOKENS). */
  tokens?: string[];
  /** Valid session keys, one user each (REF_SESSIONS). */
  sessions?: string[];
  /** A planted fault (REF_FAULT): missing-field, wrong-type, other-host, server-error:<resource>, count-lies. */
  fault?: string;
  /** A request log on stderr (REF_VERBOSE=1), forwarded to this process's stderr. */
  verbose?: boolean;
  /**
   * The profile (REF_PROFILE): `default`, the deployment the interface document was written from;
   * `designer`, the designer's edit of the spec (test/fixtures/designer/openapi.yaml: writes, filters,
   * search, ordering, page_size; its fixtures by default). Both have a test-only `POST /__ref/reset`.
   */
  profile?: Profile;
  /**
   * PYTHONPATH for the server: other Django / DRF / django-filter versions to run the same project with
   * (default: PYDEPS for the default profile, none for the designer profile).
   */
  pythonPath?: string;
}

export interface Reference {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // No orphans: whatever ends this process takes the reference servers with it (they also exit when
  // their stdin closes, which covers a SIGKILL of this process).
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    running.delete(child);
    return;
  }
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
  running.delete(child);
}

/** Starts the reference on 127.0.0.1 on an ephemeral port and waits until it listens. */
export async function startReference(opts: ReferenceOptions = {}): Promise<Reference> {
  const profile = opts.profile ?? 'default';
  const available = opts.pythonPath ? ({ ok: true } as const) : referenceAvailable(profile);
  if (!available.ok) throw new Error(`the reference deployment is unavailable: ${available.why}`);
  installExitHook();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
  };
  for (const key of Object.keys(env)) if (key.startsWith('REF_') || key === 'DJANGO_SETTINGS_MODULE') delete env[key];
  env.REF_PAGE_SIZE = String(opts.pageSize ?? 100);
  if (opts.trustProxy) env.REF_TRUST_PROXY = '1';
  if (opts.allowedHosts) env.REF_ALLOWED_HOSTS = opts.allowedHosts.join(',');
  if (opts.fixturesDir) env.REF_FIXTURES = opts.fixturesDir;
  if (opts.frontendOrigin) env.REF_FRONTEND_ORIGIN = opts.frontendOrigin;
  if (opts.tokens?.length) env.REF_TOKENS = opts.tokens.join(',');
  if (opts.sessions?.length) env.REF_SESSIONS = opts.sessions.join(',');
  if (opts.fault) env.REF_FAULT = opts.fault;
  if (opts.verbose) env.REF_VERBOSE = '1';
  if (profile !== 'default') env.REF_PROFILE = profile;
  const pythonPath = opts.pythonPath ?? (profile === 'default' ? PYDEPS : undefined);
  if (pythonPath) env.PYTHONPATH = pythonPath;
  else delete env.PYTHONPATH;
  const child = spawn(PYTHON, [SERVE_PY, '--port', '0', '--exit-with-stdin'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  child.stderr?.on('data', (d: Buffer) => {
    out += d;
    if (opts.verbose) process.stderr.write(d);
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the reference did not start within 30 s:\n${out}`)), 30_000);
      child.stdout?.on('data', (d: Buffer) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m?.[1]) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the reference exited (${code ?? signal}) before listening:\n${out}`));
      });
    });
    return { url, pid: child.pid ?? -1, stop: () => stopChild(child) };
  } catch (e) {
    await stopChild(child);
    throw e;
  }
}

/**
 * Whether tests of the reference run: they skip with a message when the reference is unavailable,
 * except on CI (CI=true) or with REQUIRE_REFERENCE=1, where its absence fails them.
 */
export function referenceGate(
  profile: Profile = 'default',
): { run: true } | { run: false; skip: true; why: string } | { run: false; skip: false; why: string } {
  const a = referenceAvailable(profile);
  if (a.ok) return { run: true };
  const required = process.env.CI === 'true' || process.env.REQUIRE_REFERENCE === '1';
  return required
    ? { run: false, skip: false, why: `${a.why} (required: CI=true or REQUIRE_REFERENCE=1)` }
    : { run: false, skip: true, why: a.why };
}
