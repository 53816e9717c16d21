// openapi-backend behind plain node:http, as `npm run bench` measures it: the spec routes and
// validates each request, and the handler of the spec's desk-list operation answers the body
// given in BODY_FILE with Content-Type: application/json. `quick: true`: openapi-backend checks a
// definition against the OpenAPI 3.0 schema only, rejects the stub's 3.1 document and then serves
// nothing; quick mode skips that check (and compiles each validator on first use), while every
// request is still routed and validated.
// Usage: node bench/peers/openapi-backend-server.mjs PORT SPEC_FILE OPERATION_ID BODY_FILE
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { OpenAPIBackend } from 'openapi-backend';

const [port, specFile, operationId, bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile ?? '');
const json = (res, status, value) => {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};
const api = new OpenAPIBackend({ definition: specFile ?? '', quick: true });
api.register({
  [operationId ?? '']: (_c, _req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  },
  validationFail: (c, _req, res) => json(res, 400, { detail: c.validation.errors }),
  notFound: (_c, _req, res) => json(res, 404, { detail: 'Not found.' }),
  notImplemented: (_c, _req, res) => json(res, 501, { detail: 'Not implemented.' }),
});
await api.init();
createServer((req, res) => {
  api
    .handleRequest({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers }, req, res)
    .catch((e) => json(res, 500, { detail: String(e) }));
}).listen(Number(port), '127.0.0.1', () => process.stdout.write(`openapi-backend listening on ${port}\n`));
