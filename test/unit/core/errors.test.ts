import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DJANGO_ERRORS, DRF_ERRORS } from '../../../src/core/errors.js';
import { ROOT } from '../../cli-helpers.js';

describe('the error catalogue', () => {
  it.each(Object.entries(DRF_ERRORS))('%s has a status, a detail and a documentation line', (_code, e) => {
    expect(e.status).toBeGreaterThanOrEqual(400);
    expect(e.status).toBeLessThan(600);
    expect(e.detail).toMatch(/\.$/);
    expect(e.doc.length).toBeGreaterThan(20);
  });

  it.each(Object.entries(DJANGO_ERRORS))("%s is one of Django's own pages", (_code, e) => {
    expect(e.page).toContain('<!doctype html>');
    expect(e.doc.length).toBeGreaterThan(20);
  });

  it('every error is documented in the README, with its status and body', async () => {
    const readme = await readFile(`${ROOT}README.md`, 'utf8');
    for (const e of Object.values(DRF_ERRORS)) expect(readme).toContain(`| ${e.status} | \`{"detail":"${e.detail}"}\``);
    for (const e of Object.values(DJANGO_ERRORS))
      expect(readme).toContain(`| ${e.status} | ${/<h1>([^<]+)<\/h1>/.exec(e.page)?.[1]}`);
  });
});
