import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from '../cli-helpers.js';

/**
 * What the package tests share: npm run as a user runs it, fresh projects that install a packed
 * tarball, and what such an install holds (test/package/pack.test.ts, frontend-size.test.ts).
 */

export interface Run {
  readonly code: number | null;
  readonly output: string;
}

/**
 * Children get the user's npm configuration (registry, cache, proxy), never the settings `npm test`
 * hands its scripts (`npm_config_local_prefix` would send an install to this repository), nor
 * vitest's own variables.
 */
function childEnv(): NodeJS.ProcessEnv {
  const keep =
    /^npm_config_(registry|cache|userconfig|globalconfig|proxy|https_proxy|noproxy|strict_ssl|cafile|ca|@.*:registry|\/\/.*)$/i;
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1' };
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|INIT_CWD$|NODE_ENV$|TEST$)/i.test(k) && !keep.test(k)) continue;
    env[k] = v;
  }
  return env;
}

export function run(cmd: string, args: readonly string[], cwd: string, timeoutMs = 120_000): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => (output += String(e)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** `npm install` quietly (errors only, unless `args` says otherwise: the last `--loglevel` wins). */
export const npmInstall = (cwd: string, args: readonly string[]) =>
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...args], cwd, 180_000);

/** Why the npm registry cannot be reached, or nothing when it can. */
export async function registryReachable(): Promise<string | undefined> {
  const r = await run('npm', ['ping'], ROOT, 20_000);
  return r.code === 0
    ? undefined
    : r.output.trim().split('\n').slice(-3).join(' ') || `npm ping exited ${String(r.code)}`;
}

/** A new project that installs the tarball (and whatever `args` names besides); npm's output. */
export async function project(dir: string, args: readonly string[], tarball: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: path.basename(dir), private: true, type: 'module' }, null, 2),
  );
  const r = await npmInstall(dir, [...args, tarball]);
  if (r.code !== 0) throw new Error(`installing the tarball into ${dir} failed:\n${r.output}`);
  return r.output;
}

/** Packages installed under node_modules (scoped ones and nested copies included). */
export async function installedPackages(nodeModules: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    if (!existsSync(dir)) return;
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      if (e.name.startsWith('@')) {
        await walk(full);
        continue;
      }
      if (existsSync(path.join(full, 'package.json'))) {
        out.push(path.relative(nodeModules, full));
        await walk(path.join(full, 'node_modules'));
      }
    }
  };
  await walk(nodeModules);
  return out;
}

/** Bytes of the files under `dir`; with `ownOnly`, not those under a nested node_modules. */
export async function sizeOf(dir: string, ownOnly = false): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (ownOnly && path.relative(dir, e.parentPath).split(path.sep).includes('node_modules')) continue;
    if (e.isFile()) total += (await stat(path.join(e.parentPath, e.name))).size;
  }
  return total;
}
