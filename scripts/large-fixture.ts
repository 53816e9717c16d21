// Writes a large desk fixture for the scale benchmark (not committed):
// `tsx scripts/large-fixture.ts --count 1000000 --out DIR` → DIR/desk.json
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { StoredDesk } from '../src/types.js';

const { values } = parseArgs({ options: { count: { type: 'string', default: '1000000' }, out: { type: 'string' } } });
const count = Number(values.count);
if (!Number.isInteger(count) || count < 0 || !values.out) {
  process.stderr.write('usage: tsx scripts/large-fixture.ts --count N --out DIR\n');
  process.exit(2);
}
await mkdir(values.out, { recursive: true });
const file = path.join(values.out, 'desk.json');
const out = createWriteStream(file);
const buildings = 'ABCDEFGHJK';
out.write('[\n');
for (let i = 1; i <= count; i++) {
  // Deterministic, realistic spread: 10 buildings, 12 floors, 40 desks a floor, some suffixed.
  const desk: StoredDesk = {
    pk: i,
    building: buildings[i % buildings.length] ?? 'A',
    floor: 1 + (Math.floor(i / 10) % 12),
    number: `${1 + (i % 40)}${i % 7 === 0 ? 'A' : ''}`,
    active: i % 9 !== 0,
    lead: i % 40 === 1,
    ergonomic: i % 3 === 0,
    held_today: i % 4 < 2,
  };
  if (!out.write(`${JSON.stringify(desk)}${i < count ? ',' : ''}\n`))
    await new Promise<void>((r) => out.once('drain', () => r()));
}
out.end(']\n');
await new Promise<void>((r) => out.once('finish', () => r()));
process.stdout.write(`${count} desks written to ${file}\n`);
