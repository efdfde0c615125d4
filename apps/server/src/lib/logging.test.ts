import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError, registerErrorHandler } from './app-error.ts';
import { logFormat } from './logger.ts';

describe('log format', () => {
  it('is readable on a terminal and JSON elsewhere, unless LOG_FORMAT chooses', () => {
    expect(logFormat(null, true)).toBe('pretty');
    expect(logFormat(null, false)).toBe('json');
    expect(logFormat('json', true)).toBe('json');
    expect(logFormat('pretty', false)).toBe('pretty');
  });
});

describe('refused and failed requests in the log', () => {
  it("logs a client's mistake at warn and Cadence's own failure at error", async () => {
    const lines: { level: number; msg: string; statusCode?: number }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line));
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream } });
    registerErrorHandler(app);
    app.get('/refused', () => {
      throw new AppError('validation_failed', 'bad input');
    });
    app.get('/broken', () => {
      throw new Error('a bug');
    });
    try {
      expect((await app.inject({ url: '/refused' })).statusCode).toBe(400);
      expect((await app.inject({ url: '/broken' })).statusCode).toBe(500);
    } finally {
      await app.close();
    }
    const refused = lines.find((line) => line.msg === 'request refused');
    expect(refused).toMatchObject({ level: 40, statusCode: 400 });
    expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([
      'request failed',
    ]);
  });
});
