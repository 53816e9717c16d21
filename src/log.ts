import type { FastifyServerOptions } from 'fastify';
import pc from 'picocolors';
import pinoPretty from 'pino-pretty';
import type { StubConfig } from './config.js';

/** Colour only on a terminal and never with NO_COLOR (picocolors checks both). */
export const colors = pc;

/**
 * Fastify's logger (pino): one line per request. `--log-format json` keeps pino's JSON lines;
 * the default prints `GET /api/v1/desk 200 1.2ms` through pino-pretty, coloured on a terminal.
 */
export function loggerOptions(config: StubConfig): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  if (config.logFormat === 'json') return { level: 'info' };
  const stream = pinoPretty({
    colorize: pc.isColorSupported,
    sync: true,
    ignore: 'pid,hostname,reqId,method,url,status,ms',
    translateTime: 'HH:MM:ss.l',
    messageFormat: (log: Record<string, unknown>, messageKey: string) =>
      log.method ? `${String(log.method)} ${String(log.url)} ${String(log.status)} ${String(log.ms)}ms` : String(log[messageKey] ?? ''),
  });
  return { level: 'info', stream };
}
