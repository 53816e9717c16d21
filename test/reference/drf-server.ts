// Starts and stops the reference deployment (test/reference/drf/, Debian's Django 3.2 + DRF 3.14) from tests.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

/** Always Debian's interpreter: a pyenv python3 without Django may come first on PATH. (REF_PYTHON overrides, for tests of the skip.) */
export const PYTHON = process.env.REF_PYTHON || '/usr/bin/python3';
export const SERVE_PY = fileURLToPath(new URL('./drf/serve.py', import.meta.url));

let availability: { ok: true } | { ok: false; why: string } | undefined;

/** Whether /usr/bin/python3 can import django and rest_framework (checked once). */
export function referenceAvailable(): { ok: true } | { ok: false; why: string } {
  if (availability) return availability;
  const probe = spawnSync(
    PYTHON,
    ['-c', 'import django, rest_framework; print(django.get_version(), rest_framework.VERSION)'],
    { encoding: 'utf8', timeout: 15_000 },
  );
  if (probe.error)
    availability = {
      ok: false,
      why: `${PYTHON} cannot run (${probe.error.message}); install python3 and python3-djangorestframework`,
    };
  else if (probe.status !== 0)
    availability = {
      ok: false,
      why: `${PYTHON} cannot import django and rest_framework (apt-get install -y python3-djangorestframework python3-django-filters): ${probe.stderr.trim().split('\n').pop() ?? ''}`,
    };
  else availability = { ok: true };
  return availability;
}

/** The versions the reference runs, e.g. "3.2.25 3.14.0" (for messages). */
export function referenceVersions(): string {
  const probe = spawnSync(
    PYTHON,
    ['-c', 'import django, rest_framework; print(django.get_version(), rest_framework.VERSION)'],
    { encoding: 'utf8', timeout: 15_000 },
  );
  return probe.stdout.trim();
}

export interface ReferenceOptions {
  /** PAGE_SIZE (REF_PAGE_SIZE); 100 by default. */
  pageSize?: number;
  /** USE_X_FORWARDED_HOST and SECURE_PROXY_SSL_HEADER (REF_TRUST_PROXY=1). */
  trustProxy?: boolean;
  /** ALLOWED_HOSTS (REF_ALLOWED_HOSTS); ['*'] by default. */
  allowedHosts?: string[];
  /** The fixtures folder (REF_FIXTURES); the repository's fixtures/ by default. */
  fixturesDir?: string;
  /** Resources besides desk that get a detail route (REF_DETAIL_ROUTES). */
  detailRoutes?: string[];
  /** A planted fault (REF_FAULT): missing-field, wrong-type, other-host, server-error:<resource>, count-lies. */
  fault?: string;
  /** A request log on stderr (REF_VERBOSE=1), forwarded to this process's stderr. */
  verbose?: boolean;
  /**
   * The deployment (REF_PROFILE): `default`, the interface document (read-only); `designer`, the
   * designer's edit of the spec (test/fixtures/designer/openapi.yaml: writes, filters, search,
   * ordering, page_size; its fixtures by default; a test-only `POST /__ref/reset`).
   */
  profile?: 'default' | 'designer';
  /** Designer profile: also route the default profile's other 17 collections (REF_DESIGNER_OTHERS=1). */
  designerOthers?: boolean;
  /**
   * PYTHONPATH for the server: other Django / DRF / django-filter versions to run the same project with
   * (e.g. Django 5.2 + DRF 3.16 unpacked into a folder, to check an allow-list against them).
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
  const available = referenceAvailable();
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
  if (opts.detailRoutes?.length) env.REF_DETAIL_ROUTES = opts.detailRoutes.join(',');
  if (opts.fault) env.REF_FAULT = opts.fault;
  if (opts.verbose) env.REF_VERBOSE = '1';
  if (opts.profile && opts.profile !== 'default') env.REF_PROFILE = opts.profile;
  if (opts.designerOthers) env.REF_DESIGNER_OTHERS = '1';
  if (opts.pythonPath) env.PYTHONPATH = opts.pythonPath;
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
export function referenceGate():
  { run: true } | { run: false; skip: true; why: string } | { run: false; skip: false; why: string } {
  const a = referenceAvailable();
  if (a.ok) return { run: true };
  const required = process.env.CI === 'true' || process.env.REQUIRE_REFERENCE === '1';
  return required
    ? { run: false, skip: false, why: `${a.why} (required: CI=true or REQUIRE_REFERENCE=1)` }
    : { run: false, skip: true, why: a.why };
}
