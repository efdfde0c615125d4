// Regression (issue 9, item 1): an error event nobody listened to, raised inside a job, killed the
// whole process (and with it the API). The real guard runs in a child process, as in main.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDatabase, testDatabaseKind } from '../test-support/database.ts';
import { pollUntil } from '../tiktok/sandbox-test-kit.ts';
import { MAX_JOB_ATTEMPTS } from './queue.ts';

const logLine = z.looseObject({ level: z.number(), msg: z.string() });
type LogLine = z.infer<typeof logLine> & Record<string, unknown>;

let child: ChildProcess;
const lines: LogLine[] = [];
let output = '';
let closeDatabase: () => Promise<void> = () => Promise.resolve();

beforeAll(async () => {
  let databaseUrl: string | null = null;
  if (testDatabaseKind() === 'postgres') {
    const database = await openTestDatabase('postgres');
    databaseUrl = database.url;
    closeDatabase = () => database.close();
  }
  child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'process-guard.fixture.ts')],
    {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        ...(databaseUrl && { DATABASE_URL: databaseUrl }),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const text of complete) {
      output += `${text}\n`;
      const parsed = logLine.safeParse(JSON.parse(text));
      if (parsed.success) lines.push(parsed.data);
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitForLine((line) => line.event === 'ready', 60_000);
}, 90_000);
afterAll(async () => {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await closeDatabase();
});

async function waitForLine(match: (line: LogLine) => boolean, timeoutMs = 30_000) {
  const found = await pollUntil(
    () => Promise.resolve(lines.find(match)),
    (line) => line !== undefined || child.exitCode !== null,
    { timeoutMs, intervalMs: 50 },
  ).catch(() => undefined);
  if (!found) throw new Error(`expected log line not seen (exit ${child.exitCode}):\n${output}`);
  return found;
}

const send = (command: string) => child.stdin?.write(`${command}\n`);

describe('the process guard', () => {
  it('fails the job whose stream error nobody handled, not the process', async () => {
    send('send stream');
    await waitForLine((line) => line.event === 'gave-up' && line.kind === 'stream');
    const fatal = lines.filter((line) => line.level === 60 && line.kind === 'stream');
    // Each attempt's crash is logged with its context, then the job is given up.
    expect(fatal.map((line) => line.attempt)).toEqual([1, 2, 3].slice(0, MAX_JOB_ATTEMPTS));
    expect(fatal[0]).toMatchObject({
      queue: 'test.process-guard',
      msg: 'uncaught error in a job: job abandoned',
      err: { code: 'ENOENT' },
    });
    expect(typeof fatal[0]?.jobId).toBe('string');
    expect(child.exitCode).toBeNull();
  }, 60_000);

  it('fails the job whose promise rejection nobody handled, not the process', async () => {
    send('send rejection');
    await waitForLine((line) => line.event === 'gave-up' && line.kind === 'rejection');
    expect(lines.filter((line) => line.level === 60 && line.kind === 'rejection')).toHaveLength(
      MAX_JOB_ATTEMPTS,
    );
    // The process still works its queue.
    send('send fine');
    await waitForLine((line) => line.event === 'ran' && line.kind === 'fine');
    expect(child.exitCode).toBeNull();
  }, 60_000);

  it('exits, after a fatal log line, on an exception no job is to blame for', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    send('throw-outside');
    expect(await exited).toBe(1);
    expect(
      lines.find((line) => line.level === 60 && line.msg === 'uncaught exception: exiting'),
    ).toMatchObject({ err: { message: 'outside any job' } });
  }, 30_000);
});
