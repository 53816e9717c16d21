import { describe, expect, it } from 'vitest';
import { yamlPackage } from '../../../src/load/yaml-package.js';

describe('yamlPackage: the yaml package, loaded once when first needed', () => {
  it('is one module, every time, and reads YAML 1.2 with places', () => {
    const yaml = yamlPackage();
    expect(yamlPackage()).toBe(yaml);
    const lines = new yaml.LineCounter();
    const doc = yaml.parseDocument('a: 1\nb: [x, y]\n', { lineCounter: lines });
    expect(doc.toJS()).toEqual({ a: 1, b: ['x', 'y'] });
    expect(lines.linePos(5)).toEqual({ line: 2, col: 1 });
  });
});
