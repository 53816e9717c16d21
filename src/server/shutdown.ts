import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { constants } from 'node:os';

/** A server's connections and the requests in flight on them, followed from the moment of `trackConnections`. */
export interface Connections {
  /** Requests whose answer has not finished. */
  readonly inFlight: number;
  /** Open sockets. */
  readonly open: number;
  /**
   * Closing starts: every answer not yet begun says `Connection: close` (and Node closes its socket
   * after it); sockets with no request in flight (idle keep-alive, or still sending a request's
   * headers) are closed at once, and each other one as soon as its last answer is sent.
   */
  startClosing(): void;
  /** Closes every socket left, requests in flight or not. */
  destroyAll(): void;
}

/** Requests in flight on a socket (a property of the socket: no lookup per request). */
const IN_FLIGHT = Symbol('requests in flight');
/** The socket of a response in flight (its own is taken away before its 'close'). */
const SOCKET_OF = Symbol('socket of the response');
type Tracked = Socket & { [IN_FLIGHT]?: number };
type TrackedResponse = ServerResponse & { [SOCKET_OF]?: Tracked };
type RequestListener = (this: Server, req: IncomingMessage, res: ServerResponse) => void;

/**
 * Follows a server's sockets and requests (call it before `listen`, after the server's request
 * handler is in place). The following runs first, in the server's one 'request' listener, so that
 * an answer written synchronously (from the answer cache) already carries `Connection: close`
 * while closing. One listener, and per request one 'close' listener shared by every response:
 * this is paid on every request, at tens of thousands a second (Node's emit copies the list of an
 * event that has two listeners, and a closure per response costs the collector), where the rest
 * of a cached answer costs little more than writing it.
 */
export function trackConnections(server: Server): Connections {
  const sockets = new Set<Tracked>();
  const responses = new Set<ServerResponse>();
  let closing = false;

  const settle = (socket: Tracked) => {
    // Answered, and nothing more in flight on it: close it now rather than keep it alive.
    if (closing && !socket[IN_FLIGHT] && !socket.destroyed) socket.destroySoon();
  };
  // A response's 'close' comes once, when it is finished or its socket closed first.
  function finished(this: TrackedResponse) {
    responses.delete(this);
    const socket = this[SOCKET_OF];
    if (socket === undefined) return;
    socket[IN_FLIGHT] = Math.max(0, (socket[IN_FLIGHT] ?? 1) - 1);
    settle(socket);
  }
  const track = (req: IncomingMessage, res: TrackedResponse) => {
    const socket = req.socket as Tracked;
    if (sockets.has(socket)) {
      socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 0) + 1;
      res[SOCKET_OF] = socket;
    }
    responses.add(res);
    if (closing) res.setHeader('connection', 'close');
    res.on('close', finished);
  };

  server.on('connection', (socket: Tracked) => {
    sockets.add(socket);
    socket[IN_FLIGHT] = 0;
    socket.once('close', () => sockets.delete(socket));
    if (closing) socket.destroy();
  });
  // The server's request listeners, behind the one that tracks.
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', function (this: Server, req: IncomingMessage, res: ServerResponse) {
    track(req, res);
    for (const handler of handlers) handler.call(this, req, res);
  });

  return {
    get inFlight() {
      return responses.size;
    },
    get open() {
      return sockets.size;
    },
    startClosing() {
      if (closing) return;
      closing = true;
      for (const res of responses) if (!res.headersSent) res.setHeader('connection', 'close');
      for (const socket of sockets) if (!socket[IN_FLIGHT]) socket.destroy();
    },
    destroyAll() {
      closing = true;
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
    },
  };
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

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

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
          `${name} again: exiting at once, ${plural(opts.connections.inFlight, 'request')} in flight not answered`,
        );
        exit(128 + (constants.signals[name as keyof typeof constants.signals] ?? 15));
        return;
      }
      closing = true;
      const inFlight = opts.connections.inFlight;
      opts.say(
        `${name}: closing: no new connections; ${inFlight === 0 ? 'no request in flight' : `${plural(inFlight, 'request')} in flight may take up to ${opts.graceMs} ms`} (send ${name} again to exit at once)`,
      );
      opts.stopOthers?.();
      deadline = Date.now() + opts.graceMs;
      timer = setTimeout(() => {
        const left = opts.connections.inFlight;
        opts.say(
          `shutdown grace of ${opts.graceMs} ms over: closing ${plural(opts.connections.open, 'connection')} (${plural(left, 'request')} not answered)`,
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
