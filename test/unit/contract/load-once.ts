// Kept apart from fake-deployment.ts, which imports src/contract/load.js: a vi.mock factory of
// that module must not import it again.
import type { Contract } from '../../../src/contract/load.js';

/**
 * The module `src/contract/load.js` with each spec loaded once per test file (the commands load
 * theirs on every run): `vi.mock('…/src/contract/load.js', async (real) => (await import('…/load-once.js')).loadedOnce(real))`.
 * A spec that fails to load fails again each time.
 */
export async function loadedOnce(real: () => Promise<unknown>): Promise<object> {
  const mod = (await real()) as { loadContract: (file: string) => Promise<Contract> };
  const loaded = new Map<string, Promise<Contract>>();
  const loadOnce = (file: string): Promise<Contract> => {
    let c = loaded.get(file);
    if (!c) {
      c = mod.loadContract(file);
      loaded.set(file, c);
      c.catch(() => loaded.delete(file));
    }
    return c;
  };
  return { ...mod, loadContract: loadOnce };
}
