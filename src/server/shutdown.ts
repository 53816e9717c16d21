import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { constants } from 'node:os';
import { count } from '../openapi/words.js';

/** A server's connections and the requests in flight on them, followed from the moment of `trackConnections`. */
export interface Connections {
  /** Requests whose answer has not finished. */
  readonly inFlight: number;
  /** Open sockets. */
  readonly open: number;
  /**
   * Closing starts (after the server's own `close()`, which closes the idle keep-alive sockets):
   * every answer in flight says `Connection: close`, so Node closes its socket once it is sent;
   * a socket with none in flight (one still sending a request's head, which Node counts as active)
   * is closed at once.
   */
  startClosing(): void;
  /** Closes every socket left, requests in flight or not (Node's `closeAllConnections()`). */
  destroyAll(): void;
}

/**
 * Follows a server's sockets, and finds the answer in flight on each when asked: what Node's
 * server does not tell (its `closeIdleConnections()` leaves a socket that is sending a request's
 * head, and `closeAllConnections()` takes the answers in flight with it). Nothing is done per
 * request: a second `request` listener made every answer pay for it (docs/performance.md).
 */
export function trackConnections(server: Server): Connections {
  const sockets = new Set<Socket>();
  let closing = false;

  server.on('connection', (socket: Socket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  return {
    get inFlight() {
      let n = 0;
      for (const socket of sockets) if (answerOn(socket) !== undefined) n++;
      return n;
    },
    get open() {
      return sockets.size;
    },
    startClosing() {
      if (closing) return;
      closing = true;
      for (const socket of sockets) {
        const res = answerOn(socket);
        if (res === undefined) socket.destroy();
        else if (!res.headersSent) res.setHeader('connection', 'close');
      }
    },
    destroyAll() {
      closing = true;
      server.closeAllConnections();
    },
  };
}

/**
 * The answer Node's server is writing on a socket: its `_httpMessage`, set from the moment a
 * request's head has been read (its body may still be coming) until the answer's last byte has
 * left, then cleared (node/lib/_http_server.js, `assignSocket` and `detachSocket`; read the same
 * way by http-terminator). Undefined between requests and while a head is still arriving.
 */
function answerOn(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

export interface ShutdownOptions {
  /** How long requests in flight may take, from the first signal. */
  readonly graceMs: number;
  readonly connections: Connections;
  /** Stops accepting connections; resolves when the server has closed (Fastify's `app.close()`). */
  readonly close: () => Promise<void>;
  /** Stops what else runs with the server (the watcher), at the first signal. */
  readonly stopOthers?: () => void;
  /** Last words before exiting (the request log drained), bounded by the caller. */
  readonly flush?: () => Promise<void>;
  readonly say: (line: string) => void;
  readonly exit: (code: number) => void;
}

export interface Shutdown {
  /** A signal arrived: the first starts closing, a second exits at once. */
  signal(name: string): void;
  readonly closing: boolean;
}

/**
 * SIGTERM or SIGINT: stop accepting, answer the requests in flight with `Connection: close`, close
 * idle keep-alive sockets and half-sent requests at once, and exit 0 as soon as every connection
 * has closed, or when the grace period is over, whatever the clients do (a slow or stalled client,
 * an answer held by `Prefer: delay`): what is left is then closed. A second signal exits at once,
 * with 128 + its number (the shell's convention for "ended by a signal"), and says so.
 */
export function createShutdown(opts: ShutdownOptions): Shutdown {
  let closing = false;
  let exited = false;
  const exit = (code: number) => {
    if (exited) return;
    exited = true;
    opts.exit(code);
  };
  let timer: NodeJS.Timeout | undefined;
  let deadline = 0;
  const finish = async (code: number) => {
    clearTimeout(timer);
    // Last words get what is left of the grace, never more.
    const left = deadline - Date.now();
    if (opts.flush && left > 0) {
      let wait: NodeJS.Timeout | undefined;
      await Promise.race([opts.flush().catch(() => undefined), new Promise((r) => (wait = setTimeout(r, left)))]);
      clearTimeout(wait);
    }
    exit(code);
  };

  return {
    get closing() {
      return closing;
    },
    signal(name: string) {
      if (exited) return;
      if (closing) {
        opts.say(
          `${name} again: exiting at once, ${count(opts.connections.inFlight, 'request')} in flight not answered`,
        );
        exit(128 + (constants.signals[name as keyof typeof constants.signals] ?? 15));
        return;
      }
      closing = true;
      const inFlight = opts.connections.inFlight;
      opts.say(
        `${name}: closing: no new connections; ${inFlight === 0 ? 'no request in flight' : `${count(inFlight, 'request')} in flight may take up to ${opts.graceMs} ms`} (send ${name} again to exit at once)`,
      );
      opts.stopOthers?.();
      deadline = Date.now() + opts.graceMs;
      timer = setTimeout(() => {
        const left = opts.connections.inFlight;
        opts.say(
          `shutdown grace of ${opts.graceMs} ms over: closing ${count(opts.connections.open, 'connection')} (${count(left, 'request')} not answered)`,
        );
        opts.connections.destroyAll();
        void finish(0);
      }, opts.graceMs);
      // close() first (no new connections), then the idle ones: none slips in between.
      const closed = opts.close();
      opts.connections.startClosing();
      closed.then(
        () => finish(0),
        (e: unknown) => {
          opts.say(`error while closing: ${(e as Error).message}`);
          opts.connections.destroyAll();
          void finish(0);
        },
      );
    },
  };
}
