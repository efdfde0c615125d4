import { describe, expect, it } from 'vitest';
import { runTool } from './run-tool.ts';

// The programs Cadence runs (ffmpeg, ffprobe, yt-dlp) all go through runTool; these runs use
// Node itself as the program, so each behaviour is provoked exactly.
const node = process.execPath;
const script = (source: string) => ['-e', source];

describe('runTool', () => {
  it('passes arguments as an array, never through a shell', async () => {
    const injected = await runTool(node, [
      '-e',
      'process.stdout.write(process.argv[1])',
      '$(echo pwned); `id`',
    ]);
    expect(injected.code).toBe(0);
    expect(injected.stdout).toBe('$(echo pwned); `id`');
  });

  it('streams stdout lines split on \\n, \\r\\n and \\r (progress bars), the last one too', async () => {
    const lines: string[] = [];
    const exit = await runTool(node, script("process.stdout.write('a\\nb\\r\\nc\\rd')"), {
      onStdoutLine: (line) => lines.push(line),
    });
    expect(exit.code).toBe(0);
    expect(lines).toEqual(['a', 'b', 'c', 'd']);
    expect(exit.stdout).toBe('');
  });

  it('keeps the start of stdout and the end of stderr within their bounds', async () => {
    const exit = await runTool(
      node,
      script(
        "process.stdout.write('S'.repeat(5000) + 'tail'); process.stderr.write('head' + 'E'.repeat(5000) + 'why it failed'); process.exit(3)",
      ),
      { maxStdoutBytes: 1000, maxStderrBytes: 100 },
    );
    expect(exit.code).toBe(3);
    expect(exit.stdout).toBe('S'.repeat(1000));
    expect(exit.stderr).toHaveLength(100);
    expect(exit.stderr.endsWith('why it failed')).toBe(true);
  });

  it('reports a program that cannot be started instead of throwing', async () => {
    const exit = await runTool('/nonexistent/yt-dlp', ['--version']);
    expect(exit.spawnError?.code).toBe('ENOENT');
    expect(exit.code).toBeNull();
    const empty = await runTool('', []);
    expect(empty.spawnError).not.toBeNull();
  });

  it('kills the program when the signal aborts, and at once when it already has', async () => {
    const controller = new AbortController();
    const run = runTool(node, script('setInterval(() => {}, 1000)'), {
      signal: controller.signal,
      onStdoutLine: () => undefined,
    });
    controller.abort();
    const exit = await run;
    expect(exit.aborted).toBe(true);
    expect(exit.code).toBeNull();
    const before = await runTool(node, script('setInterval(() => {}, 1000)'), {
      signal: AbortSignal.abort(),
    });
    expect(before).toMatchObject({ aborted: true, code: null, spawnError: null });
  });

  it('kills a program that runs past its time limit', async () => {
    const exit = await runTool(node, script('setInterval(() => {}, 1000)'), { timeoutMs: 300 });
    expect(exit).toMatchObject({ timedOut: true, code: null });
  });

  it('kills a program whose resident memory passes the ceiling', async () => {
    const exit = await runTool(
      node,
      script('const kept = []; setInterval(() => kept.push(Buffer.alloc(20e6, 1)), 20)'),
      { maxMemoryBytes: 150 * 1024 ** 2, timeoutMs: 30_000 },
    );
    expect(exit).toMatchObject({ overMemory: true, timedOut: false, code: null });
  }, 40_000);
});
