import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from '../../cli-helpers.js';

/** An installed package with its patch (patches/) taken back: the package as published. */
export interface Unpatched {
  /** Requires a file of the package (a path inside it) from the copy. */
  require(file: string): unknown;
  /** Removes the copy. */
  remove(): Promise<void>;
}

/**
 * Copies `pkg` from node_modules into a folder of its own under node_modules (its dependencies
 * resolve from there, the patched ones included) and takes its patch back; `files` (paths inside
 * the package) must carry the patch's mark before and none after.
 */
export async function unpatchedCopy(pkg: string, files: readonly string[]): Promise<Unpatched> {
  const prefix = `${pkg.replace('/', '+')}+`;
  const patchFile = (await readdir(path.join(ROOT, 'patches'))).find((f) => f.startsWith(prefix));
  if (!patchFile) throw new Error(`no patch of ${pkg} in patches/`);
  const root = await mkdtemp(path.join(ROOT, 'node_modules', '.unpatched-'));
  const dir = path.join(root, 'node_modules', pkg);
  try {
    await cp(path.join(ROOT, 'node_modules', pkg), dir, { recursive: true });
    // patch(1), not git apply: inside the repository's work tree git applies nothing outside its index.
    execFileSync('patch', ['-R', '-p1', '-s', '-i', path.join(ROOT, 'patches', patchFile)], { cwd: root });
    for (const file of files) {
      const text = await readFile(path.join(dir, file), 'utf8');
      if (text.includes('(Patched')) throw new Error(`the patch was not taken back from ${file}`);
    }
  } catch (e) {
    await rm(root, { recursive: true, force: true });
    throw e;
  }
  const require = createRequire(path.join(dir, 'package.json'));
  return {
    require: (file) => require(path.join(dir, file)),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}
