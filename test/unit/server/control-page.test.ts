import { describe, expect, it } from 'vitest';
import { controlPageHtml, escapeHtml } from '../../../src/server/control-page.js';

describe('escapeHtml', () => {
  it.each<[string, string]>([
    ['plain', 'plain'],
    ['<script>', '&#60;script&#62;'],
    [`a & "b" 'c'`, 'a &#38; &#34;b&#34; &#39;c&#39;'],
  ])('%s', (given, want) => {
    expect(escapeHtml(given)).toBe(want);
  });
});

describe('controlPageHtml: the stub’s home page', () => {
  const html = controlPageHtml('Desk <API> & "co"');

  it('the title is text, never markup', () => {
    expect(html).toContain('<title>Desk &#60;API&#62; &#38; &#34;co&#34;: stub control</title>');
    expect(html).toContain('<h1>Desk &#60;API&#62; &#38; &#34;co&#34; <small>stub</small></h1>');
    expect(html).not.toContain('<API>');
  });

  it('every element its script looks up is on the page', () => {
    const ids = new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    const used = new Set([...html.matchAll(/\$\('([^']+)'\)/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(5);
    for (const id of used) expect(ids, id).toContain(id);
  });

  it("fetches nothing but the stub's own paths, and nothing from another host", () => {
    const paths = [...html.matchAll(/'(\/__stub\/[a-z]+)/g)].map((m) => m[1]);
    expect(new Set(paths)).toEqual(
      new Set(['/__stub/operations', '/__stub/scenarios', '/__stub/requests', '/__stub/reset']),
    );
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(html).not.toContain('innerHTML');
  });

  it('one script, the switches offering the deployment’s answers', () => {
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toContain('const ALWAYS = ["401","403","500"];');
    expect(html).toContain('const SLOW = "delay=2000";');
  });
});
