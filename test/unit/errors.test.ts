import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SERVICE_ERRORS } from '../../src/errors.js';
import { ROOT } from '../cli-helpers.js';

describe('the error catalogue', () => {
  it.each(Object.entries(SERVICE_ERRORS))('%s has a status, a detail and a documentation line', (_code, e) => {
    expect(e.status).toBeGreaterThanOrEqual(400);
    expect(e.status).toBeLessThan(600);
    expect(e.detail).toMatch(/\.$/);
    expect(e.doc.length).toBeGreaterThan(20);
  });

  it('every error is documented in the README, with its status and body', async () => {
    const readme = await readFile(`${ROOT}README.md`, 'utf8');
    for (const e of Object.values(SERVICE_ERRORS)) expect(readme).toContain(`| ${e.status} | \`{"detail":"${e.detail}"}\``);
  });
});
