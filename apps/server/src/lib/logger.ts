import pino, { type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.ts';

/** Where log lines go: JSON for machines (the default), or readable lines for a person. */
export type LogFormat = 'json' | 'pretty';

/**
 * LOG_FORMAT when set; else readable lines when someone watches the terminal (`npm start` by
 * hand), one JSON object per line otherwise (a service manager, a container, a log shipper).
 */
export function logFormat(chosen: LogFormat | null, isTerminal: boolean): LogFormat {
  return chosen ?? (isTerminal ? 'pretty' : 'json');
}

export function createLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  name: string,
  isTerminal: boolean = process.stdout.isTTY === true,
): Logger {
  const format = logFormat(config.logFormat, isTerminal);
  const options: LoggerOptions = {
    name,
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-admin-token"]',
        '*.accessToken',
        '*.refreshToken',
      ],
      censor: '[redacted]',
    },
  };
  if (format === 'json') return pino(options);
  // In-process and synchronous: no worker thread, and a crash's last lines are not lost.
  return pino(
    options,
    pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }),
  );
}
