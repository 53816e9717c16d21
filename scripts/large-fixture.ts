// Writes a large desk fixture for the scale benchmark (not committed):
// `tsx scripts/large-fixture.ts --count 1000000 --out DIR` → DIR/desk.json
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { StoredDesk } from '../src/types.js';

const { values } = parseArgs({ options: { count: { type: 'string', default: '1000000' }, out: { type: 'string' } } });
const count = Number(values.count);
// A desk number is at most 10 characters (the deployment's CharField(max_length=10)): 9 digits and a letter.
if (!Number.isInteger(count) || count < 0 || count > 999_999_999 || !values.out) {
  process.stderr.write('usage: tsx scripts/large-fixture.ts --count N --out DIR (N at most 999999999)\n');
  process.exit(2);
}
await mkdir(values.out, { recursive: true });
const file = path.join(values.out, 'desk.json');
const out = createWriteStream(file);
// Desks valid for the bundled spec, as the deployment's model has them: building S (Schaefers) or
// P (Park Place), about 14 in 15 at Schaefers; floors 1 to 12; numbers unique, digits (all of one
// width) and a letter on some. All active, so that the list shows every desk. Written in the
// model's ordering (building, floor, number: P before S), so that the stub takes the file as it stands.
const parkPlace = Math.floor(count / 15);
const schaefers = count - parkPlace;
const width = String(count).length;
out.write('[\n');
for (let i = 0; i < count; i++) {
  const atPark = i < parkPlace;
  const j = atPark ? i : i - parkPlace;
  const inBuilding = atPark ? parkPlace : schaefers;
  const desk: StoredDesk = {
    pk: i + 1,
    building: atPark ? 'P' : 'S',
    floor: 1 + Math.floor((j * 12) / inBuilding),
    number: `${String(i + 1).padStart(width, '0')}${i % 7 === 0 ? 'A' : ''}`,
    active: true,
    lead: i % 40 === 1,
    ergonomic: i % 3 === 0,
    held_today: i % 4 < 2,
  };
  if (!out.write(`${JSON.stringify(desk)}${i + 1 < count ? ',' : ''}\n`))
    await new Promise<void>((r) => out.once('drain', () => r()));
}
out.end(']\n');
await new Promise<void>((r) => out.once('finish', () => r()));
process.stdout.write(`${count} desks written to ${file}\n`);
