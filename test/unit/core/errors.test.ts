import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DJANGO_ERRORS, DRF_ERRORS } from '../../../src/core/errors.js';
import { ROOT } from '../../cli-helpers.js';
import { errorsPage } from '../../../scripts/docs.js';

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

  it('docs/errors.md is the catalogue as it is now (run `npm run docs`)', async () => {
    expect(await readFile(`${ROOT}docs/errors.md`, 'utf8')).toBe(errorsPage());
  });

  it('the page names every error, with its body', () => {
    const page = errorsPage();
    for (const [code, e] of Object.entries(DRF_ERRORS)) {
      expect(page).toContain(`\`${code}\``);
      expect(page).toContain(e.detail);
    }
    for (const code of Object.keys(DJANGO_ERRORS)) expect(page).toContain(`\`${code}\``);
  });
});
