import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { healthSchema } from '@cadence/shared/schemas/user';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test-support/app.ts';
import { startServerProcess } from '../../test-support/server-process.ts';
import { checkMediaTools } from './media-tools.ts';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'cadence-health-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** An executable that answers `-version` like the real tool but fails at any real work. */
function versionOnlyFfmpeg(): string {
  const file = path.join(scratch, 'ffmpeg-without-encoders');
  writeFileSync(
    file,
    '#!/bin/sh\ncase " $* " in *" -version "*) exec ffmpeg "$@";; esac\necho "Unknown encoder libx264" >&2\nexit 1\n',
  );
  chmodSync(file, 0o755);
  return file;
}

async function health(env: NodeJS.ProcessEnv) {
  const t = await createTestApp(env);
  try {
    const response = await t.app.inject({ url: '/api/health' });
    return { status: response.statusCode, body: healthSchema.parse(response.json()) };
  } finally {
    await t.close();
  }
}

describe('GET /api/health and the media tools', () => {
  it('is ok with the real tools', async () => {
    expect(await health({})).toEqual({
      status: 200,
      body: expect.objectContaining({
        status: 'ok',
        media: { ffmpeg: 'ok', ffprobe: 'ok', ytDlp: 'ok' },
        problems: [],
      }) as unknown,
    });
  });

  it('answers 503 and says what is wrong when ffmpeg or ffprobe cannot be run, without paths', async () => {
    const missing = await health({ FFPROBE_PATH: '/nonexistent/ffprobe' });
    expect(missing.status).toBe(503);
    expect(missing.body).toMatchObject({
      status: 'unhealthy',
      media: { ffmpeg: 'ok', ffprobe: 'missing' },
      problems: ['ffprobe is missing'],
    });
    expect(JSON.stringify(missing.body)).not.toContain('/nonexistent');

    const broken = await health({ FFMPEG_PATH: '/bin/false' });
    expect(broken).toMatchObject({
      status: 503,
      body: { media: { ffmpeg: 'broken' }, problems: ['ffmpeg is not working'] },
    });
  });

  it('stays up without yt-dlp, reporting YouTube links as the one capability missing', async () => {
    expect(await health({ YTDLP_PATH: '/nonexistent/yt-dlp' })).toMatchObject({
      status: 200,
      body: {
        status: 'degraded',
        media: { ffmpeg: 'ok', ffprobe: 'ok', ytDlp: 'missing' },
        problems: ['yt-dlp is missing: YouTube links are disabled'],
      },
    });
  });

  it('finds an ffmpeg that answers -version but cannot encode', async () => {
    const media = { ffmpegPath: versionOnlyFfmpeg(), ffprobePath: 'ffprobe', ytDlpPath: 'yt-dlp' };
    expect((await checkMediaTools(media)).ffmpeg.state).toBe('ok');
    const checked = await checkMediaTools(media, { roundTrip: true });
    expect(checked.ffmpeg).toMatchObject({
      state: 'broken',
      detail: expect.stringContaining('Unknown encoder libx264') as unknown,
    });
  });
});

describe('starting the server', () => {
  // Regression: with ffprobe missing the server started and called every upload "not a readable
  // video".
  it('refuses to start when ffmpeg or ffprobe is missing or broken, naming what to fix', async () => {
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    await expect(
      startServerProcess(dataDir, { FFMPEG_PATH: '/nonexistent/ffmpeg' }),
    ).rejects.toThrow(
      /server exited \(1\)[\s\S]*ffmpeg is missing: install ffmpeg .* or set FFMPEG_PATH/,
    );
    await expect(startServerProcess(dataDir, { FFMPEG_PATH: versionOnlyFfmpeg() })).rejects.toThrow(
      /server exited \(1\)[\s\S]*ffmpeg is broken[\s\S]*Unknown encoder libx264/,
    );
  }, 120_000);

  it('starts without yt-dlp, warns, and reports it degraded', async () => {
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    const server = await startServerProcess(dataDir, {
      YTDLP_PATH: '/nonexistent/yt-dlp',
      WORKER: 'off',
    });
    try {
      const response = await fetch(`${server.url}/api/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'degraded' });
      expect(server.logs()).toContain('yt-dlp is missing: YouTube links in the meme detector');
    } finally {
      await server.stop();
    }
  }, 120_000);
});
