import { mkdtemp, open, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchTexts, ItemScanner, ItemStreamError, streamItemBatches } from '../../../src/load/item-stream.js';

/** All items of `text` fed in chunks of `size` bytes. */
function scan(text: string, size: number, maxDepth = 64): string[] {
  const scanner = new ItemScanner(maxDepth);
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += size) scanner.feed(bytes.subarray(i, i + size));
  scanner.end();
  return scanner.out.map((i) => i.text);
}

describe('the fixture item scanner', () => {
  it('finds each item of any JSON array, whatever the chunk size (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        (items, size, pretty) => {
          const text = JSON.stringify(items, null, pretty ? 2 : undefined);
          expect(scan(text, size).map((t) => JSON.parse(t) as unknown)).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 300, seed: 4 },
    );
  });

  it('marks an item canonical only when its text is exactly what JSON.stringify writes (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 10 }),
        fc.integer({ min: 1, max: 30 }),
        fc.boolean(),
        (items, size, pretty) => {
          const text = JSON.stringify(items, null, pretty ? 1 : undefined);
          const scanner = new ItemScanner(64);
          const bytes = Buffer.from(text);
          for (let i = 0; i < bytes.length; i += size) scanner.feed(bytes.subarray(i, i + size));
          for (const item of scanner.out)
            if (item.canonical) expect(item.text).toBe(JSON.stringify(JSON.parse(item.text)));
          // A compact, plain item is recognised as such.
          if (!pretty)
            for (const item of scanner.out)
              if (!/[\\.eE+\u2028\u2029]|-0/.test(item.text)) expect(item.canonical).toBe(true);
        },
      ),
      { numRuns: 300, seed: 5 },
    );
  });

  it.each([
    ['not an array', '{"a":1}', 1, 1, 'a fixture is a JSON array of items'],
    ['a trailing comma', '[1,\n 2,\n]', 3, 1, 'a comma before ]'],
    ['a missing comma', '[{"a":1}\n {"b":2}]', 2, 2, "Expecting ',' delimiter"],
    ['an unclosed array', '[{"a":1},', 1, 9, 'the array is not closed'],
    ['extra data', '[1] 2', 1, 5, 'Extra data after the array'],
    ['too deep', `[${'['.repeat(70)}${']'.repeat(70)}]`, 1, 65, 'nested deeper than 64 levels of arrays and objects'],
    ['a BOM', '\ufeff[1]', 1, 1, 'byte order mark'],
    ['empty', '', 1, 0, 'the file is empty'],
  ])('%s: a fault with its line and column', (_name, text, line, col, message) => {
    let caught: unknown;
    try {
      scan(text, 3);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ItemStreamError);
    expect({ line: (caught as ItemStreamError).line, col: (caught as ItemStreamError).col }).toEqual({ line, col });
    expect((caught as Error).message).toContain(message);
  });

  it('tells where each item starts, and reads a file chunk by chunk', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'stream-'));
    const file = path.join(dir, 'x.json');
    await writeFile(file, '[\n  {"pk": 1, "é": "a,]}"},\n  {"pk": 2}\n]\n');
    const handle = await open(file);
    const out = [];
    for await (const batch of streamItemBatches(handle, 64, 5)) out.push(...batch);
    await handle.close();
    expect(out.map((i) => [i.index, i.line, i.col, JSON.parse(i.text)])).toEqual([
      [0, 2, 3, { pk: 1, é: 'a,]}' }],
      [1, 3, 3, { pk: 2 }],
    ]);
  });

  it("gives each batch its items' texts and the array they make, as decoding each item would (property)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'batch-'));
    const file = path.join(dir, 'x.json');
    // ASCII runs (read at once), non-ASCII items (decoded one by one), items across chunks.
    const item = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({ pk: fc.nat(), name: fc.string({ unit: 'grapheme', maxLength: 6 }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(item, { maxLength: 30 }),
        fc.integer({ min: 2, max: 200 }),
        fc.boolean(),
        async (items, size, pretty) => {
          await writeFile(file, JSON.stringify(items, null, pretty ? 2 : undefined));
          const handle = await open(file);
          const seen: unknown[] = [];
          try {
            for await (const batch of streamItemBatches(handle, 64, size)) {
              const decoded = batch.map((i) => i.bytes.toString('utf8'));
              // Every other item left out (taken over unparsed on a reload): the array holds the rest only.
              const some = batch.filter((_, k) => k % 2 === 0);
              expect(JSON.parse(batchTexts(some).array)).toEqual(
                decoded.filter((_, k) => k % 2 === 0).map((t) => JSON.parse(t) as unknown),
              );
              const { texts, array } = batchTexts(batch);
              expect(texts).toEqual(decoded);
              expect(batch.map((i) => i.text)).toEqual(decoded);
              expect(JSON.parse(array)).toEqual(decoded.map((t) => JSON.parse(t) as unknown));
              seen.push(...(JSON.parse(array) as unknown[]));
            }
          } finally {
            await handle.close();
          }
          expect(seen).toEqual(JSON.parse(JSON.stringify(items)));
        },
      ),
      { numRuns: 200, seed: 6 },
    );
  });

  it('reads the next chunk ahead, and a caller that stops early leaves no read behind', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ahead-'));
    const file = path.join(dir, 'x.json');
    await writeFile(file, JSON.stringify(Array.from({ length: 2000 }, (_, pk) => ({ pk, name: `desk ${pk}` }))));
    const handle = await open(file);
    const reads: number[] = [];
    const read = handle.read.bind(handle);
    // Counts reads started and the batches handed out when each starts, and reads not yet done.
    let batches = 0;
    let pending = 0;
    (handle as { read: unknown }).read = (...args: Parameters<typeof handle.read>) => {
      reads.push(batches);
      pending++;
      return read(...args).finally(() => pending--);
    };
    for await (const batch of streamItemBatches(handle, 64, 1024)) {
      expect(batch.length).toBeGreaterThan(0);
      batches++;
      if (batches === 3) break;
    }
    // Leaving the loop ended the generator, which waited for the read it had started.
    expect(pending).toBe(0);
    await handle.close();
    // The first read, then each chunk's successor started before its items are handed out.
    expect(reads).toEqual([0, 0, 1, 2]);
  });

  it('a read ahead that fails while the caller is busy is thrown when its chunk is asked for, never unhandled', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'ahead-'));
    const file = path.join(dir, 'x.json');
    await writeFile(file, JSON.stringify(Array.from({ length: 2000 }, (_, pk) => ({ pk, name: `desk ${pk}` }))));
    const handle = await open(file);
    const read = handle.read.bind(handle);
    let calls = 0;
    (handle as { read: unknown }).read = (...args: Parameters<typeof handle.read>) =>
      ++calls === 2 ? Promise.reject(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' })) : read(...args);
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    let caught: unknown;
    try {
      for await (const _batch of streamItemBatches(handle, 64, 1024)) {
        // Busy elsewhere (a timer, other I/O) while the second read fails.
        await new Promise((r) => setTimeout(r, 20));
      }
    } catch (e) {
      caught = e;
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await handle.close();
    }
    expect((caught as Error).message).toMatch(/EIO/);
    expect(unhandled).toEqual([]);
  });
});
