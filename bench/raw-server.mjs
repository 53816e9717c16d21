// The practical limit: node:http answering precomputed bytes, no routing, no work per request.
// Plain JavaScript, run by node itself: nothing between the socket and the bytes.
// Usage: node bench/raw-server.mjs PORT FILE [HEADERS_FILE]
//   FILE holds the body to answer; HEADERS_FILE, a JSON object of the response headers to send
//   with it (the stub's own, so the raw server writes the same header bytes too; node adds Date,
//   Connection and Keep-Alive as it does for the stub). Without it: Content-Type and
//   Content-Length only.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [port, file, headersFile] = process.argv.slice(2);
const body = readFileSync(file ?? '');
const headers = headersFile
  ? JSON.parse(readFileSync(headersFile, 'utf8'))
  : { 'content-type': 'application/json', 'content-length': String(body.length) };
createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => process.stdout.write(`raw listening on ${port}\n`));
