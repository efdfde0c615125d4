import { Writable } from 'node:stream';
import pino, { type Level, type Logger } from 'pino';

/**
 * A logger at `level` and above whose lines a test reads back, one JSON line per entry (pino writes
 * each entry at once): to require, say, that a client's mistake never reaches error level.
 */
export function capturedLogger(level: Level): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}
