// A probe the bench runs beside a load, in a process of its own (so that the load generator's
// work does not count in its waits): one keep-alive connection, one GET at a time, the next
// sent on the next tick of INTERVAL ms (at once when an answer took longer). Runs until its
// standard input closes or DURATION ms have passed, then writes one JSON line:
// {"samples":[[sentAtEpochMs, waitMs, status], ...]} (status 0: no answer: error, reset, or none
// within 120 s).
// Usage: node bench/probe.mjs PORT PATH HOST INTERVAL_MS DURATION_MS
import { Agent, request } from 'node:http';

const [port, path, host, intervalMs, durationMs] = process.argv.slice(2);
const interval = Number(intervalMs ?? 10);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const samples = [];
let stopped = false;
process.stdin.on('end', () => (stopped = true));
process.stdin.on('close', () => (stopped = true));
process.stdin.resume();
const deadline = Date.now() + Number(durationMs ?? 60_000);

function once() {
  return new Promise((resolve) => {
    const sentAt = Date.now();
    const t0 = performance.now();
    const done = (status) => {
      samples.push([sentAt, Math.round((performance.now() - t0) * 1000) / 1000, status]);
      resolve();
    };
    const req = request(
      { host: '127.0.0.1', port: Number(port), path, headers: { host }, agent, timeout: 120_000 },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => done(res.statusCode ?? 0));
        res.on('error', () => done(0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => done(0));
    req.end();
  });
}

let next = performance.now();
while (!stopped && Date.now() < deadline) {
  await once();
  next += interval;
  const wait = next - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  else next = performance.now();
}
agent.destroy();
process.stdout.write(`${JSON.stringify({ samples })}\n`);
process.exit(0);
