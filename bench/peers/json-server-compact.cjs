// json-server 0.17 pretty-prints every answer (Express's `json spaces` is 2 in its
// jsonServer.create()); this middleware, loaded with `--middlewares`, sets it back to Express's
// default (compact JSON.stringify) on the first request, so the desk list answers the stub's
// exact bytes. Everything else is json-server's CLI as it runs by default.
/* eslint-disable no-undef */
let compact = false;
module.exports = (req, _res, next) => {
  if (!compact) {
    req.app.set('json spaces', undefined);
    compact = true;
  }
  next();
};
