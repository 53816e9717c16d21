// The practical limit: node:http answering precomputed bytes, no routing, no work per request.
// Plain JavaScript, run by node itself: nothing between the socket and the bytes.
// Usage: node bench/raw-server.mjs PORT FILE (FILE holds the body to answer).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, file] = process.argv.slice(2);
const body = readFileSync(file ?? '');
const headers = { 'content-type': 'application/json', 'content-length': String(body.length) };
createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.stdout.write(`raw listening on ${port}\n`));
