import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';
import { createTempDir, makeVideo, makeNotAVideo } from '../../test-support/media-fixtures.ts';
import { tusUpload } from '../../test-support/tus-upload.ts';
import { runMediaTool } from '../../media/ffmpeg.ts';
import { mediaKey } from '../../storage/media-storage.ts';
import { heavyOnThisDatabase } from '../../test-support/test-tier.ts';

/**
 * Regression (issue 9, item 3): crafted files uploaded as videos. A 180-byte HLS playlist was
 * accepted as a 1080×1920 'video' because its file:// entries made ffprobe read another user's
 * story. Every file below goes through the real upload (tus) and probe path and must be refused
 * as 'not a readable video' (media.rejected.not_a_video), leaving nothing behind.
 */

let t: TestApp;
let dir: string;
let cleanup: () => Promise<void>;
let attacker: string;
/** Absolute path of the victim's stored story, which no crafted file may reach. */
let victimFile: string;
/** The attacker's own earlier upload, in the same storage directory as their next ones. */
let ownUploadName: string;

beforeAll(async () => {
  ({ dir, cleanup } = await createTempDir('cadence-crafted-'));
  t = await createTestApp({}, { listen: true });
  attacker = await signUpViaApi(t.app, { email: 'mallory@example.com' }, t.url);
  await signUpViaApi(t.app, { email: 'victim@example.com' }, t.url);
  const victim = await t.context.database.db
    .selectFrom('user')
    .select('id')
    .where('email', '=', 'victim@example.com')
    .executeTakeFirstOrThrow();
  // An odd size nobody else uses, so a probe that reached it would say 432×768.
  const story = await makeVideo(path.join(dir, 'story.mp4'), {
    width: 432,
    height: 768,
    durationSeconds: 2,
    source: { color: 'magenta' },
  });
  const stored = await t.context.media.createFromFile(victim.id, {
    localPath: story,
    kind: 'story',
    originalName: 'story.mp4',
  });
  if (t.config.storage.driver !== 'local') throw new Error('these tests read local storage');
  victimFile = path.join(t.config.storage.rootDir, mediaKey(victim.id, stored.id, 'mp4'));
  expect((await readFile(victimFile)).length).toBeGreaterThan(0);
  const own = await makeVideo(path.join(dir, 'own.mp4'), { width: 360, height: 640 });
  const ownUpload = await tusUpload(t.url, attacker, own, { purpose: 'source' });
  expect(ownUpload.status, ownUpload.body).toBe(204);
  ownUploadName = `${ownUpload.id ?? ''}.video`;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await cleanup?.();
});

async function attackerMediaCount(): Promise<number> {
  const response = await t.app.inject({ url: '/api/media', headers: { cookie: attacker } });
  return response.json<{ media: unknown[] }>().media.length;
}

/** Uploads `content` as a video (story/meme source and post alike) and expects the refusal. */
async function expectRefused(name: string, content: string | Buffer): Promise<void> {
  const file = path.join(dir, name);
  await writeFile(file, content);
  const before = await attackerMediaCount();
  for (const purpose of ['source', 'post'] as const) {
    const upload = await tusUpload(t.url, attacker, file, { filename: name, purpose });
    expect(upload.status, `${name} as ${purpose}: ${upload.body}`).toBe(422);
    expect(JSON.parse(upload.body)).toEqual({ code: 'media_rejected', reasons: ['not_a_video'] });
  }
  // Nothing was registered: no row, no thumbnail of anyone's picture.
  expect(await attackerMediaCount()).toBe(before);
}

const hlsPlaylist = (target: string) =>
  [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    '#EXT-X-TARGETDURATION:2',
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXTINF:2.0,',
    `file://${target}`,
    '#EXT-X-ENDLIST',
    '',
  ].join('\n');

/** A RIFF AVI whose only stream is a GAB2 subtitle carrying `payload` (ffmpeg probes what is inside). */
function aviWrapping(payload: Buffer): Buffer {
  const chunk = (fourcc: string, data: Buffer) => {
    const header = Buffer.alloc(8);
    header.write(fourcc, 0, 'latin1');
    header.writeUInt32LE(data.length, 4);
    return Buffer.concat([header, data, Buffer.alloc(data.length % 2)]);
  };
  const list = (kind: string, data: Buffer) =>
    chunk('LIST', Buffer.concat([Buffer.from(kind), data]));
  const u16 = (value: number) => Buffer.from(new Uint16Array([value]).buffer);
  const u32 = (...values: number[]) => Buffer.from(new Uint32Array(values).buffer);
  const description = Buffer.from('x\0', 'utf16le');
  const gab2 = Buffer.concat([
    Buffer.from('GAB2\0', 'latin1'),
    u16(2),
    u32(description.length),
    description,
    u16(4),
    u32(payload.length),
    payload,
  ]);
  const avih = Buffer.concat([u32(40_000, 0, 0, 0x10, 1, 0, 1, 0, 0, 0), Buffer.alloc(16)]);
  const strh = Buffer.concat([Buffer.from('txts\0\0\0\0'), u32(0, 0, 1, 25, 0, 1, 0, 0, 0, 0, 0)]);
  const hdrl = list(
    'hdrl',
    Buffer.concat([
      chunk('avih', avih),
      list('strl', Buffer.concat([chunk('strh', strh), chunk('strf', Buffer.alloc(0))])),
    ]),
  );
  const body = Buffer.concat([
    Buffer.from('AVI '),
    hdrl,
    list('movi', chunk('00tx', gab2)),
    chunk('idx1', Buffer.concat([Buffer.from('00tx'), u32(0x10, 4, gab2.length)])),
  ]);
  return Buffer.concat([Buffer.from('RIFF'), u32(body.length), body]);
}

/** Sets the duration of every `box` (mvhd, mdhd: version 0) to `seconds` in its own timescale. */
function claimDuration(mp4: Buffer, box: 'mvhd' | 'mdhd', seconds: number): Buffer {
  const patched = Buffer.from(mp4);
  for (let at = patched.indexOf(box); at >= 0; at = patched.indexOf(box, at + 4)) {
    // type, version+flags, creation, modification, timescale, duration
    const timescale = patched.readUInt32BE(at + 16);
    patched.writeUInt32BE(Math.min(0xffffffff, seconds * timescale), at + 20);
  }
  return patched;
}

// What ffmpeg makes of each crafted file is the same whatever the database: those cases run on one
// database in CI, both in the full tier; the text file's refusal and the real video's acceptance,
// whose database work is every case's, run on both (test-tier.ts).
describe('crafted media is refused as not a readable video', () => {
  it.runIf(heavyOnThisDatabase)(
    "an HLS playlist whose file:// entries point at another user's story",
    async () => {
      await expectRefused('clip.m3u8', hlsPlaylist(victimFile));
    },
  );

  it.runIf(heavyOnThisDatabase)(
    'the same playlist named .ts, .mp4 and .avi (ffmpeg sniffs content, not names)',
    async () => {
      for (const name of ['clip.ts', 'clip.mp4', 'clip.avi']) {
        await expectRefused(name, hlsPlaylist(victimFile));
      }
    },
  );

  it.runIf(heavyOnThisDatabase)('a DASH manifest whose BaseURL is that story', async () => {
    const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT2S" minBufferTime="PT1S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
  <Period><AdaptationSet mimeType="video/mp4">
    <Representation id="v" bandwidth="100000" width="432" height="768">
      <BaseURL>file://${victimFile}</BaseURL>
    </Representation>
  </AdaptationSet></Period>
</MPD>
`;
    await expectRefused('clip.mpd', manifest);
  });

  it.runIf(heavyOnThisDatabase)(
    'an ffconcat script naming a file beside it (the uploader’s own earlier video)',
    async () => {
      await expectRefused('list.ffconcat', `ffconcat version 1.0\nfile ${ownUploadName}\n`);
    },
  );

  it.runIf(heavyOnThisDatabase)('an AVI wrapping that playlist as a GAB2 subtitle', async () => {
    await expectRefused('clip.avi', aviWrapping(Buffer.from(hlsPlaylist(victimFile))));
  });

  it('a text file, and a zero-byte file', async () => {
    await expectRefused('notes.txt', await readFile(await makeNotAVideo(path.join(dir, 'n.txt'))));
    await expectRefused('empty.mp4', Buffer.alloc(0));
  });

  it.runIf(heavyOnThisDatabase)(
    'an MP4 cut in half (its index, written first, still lists the missing half)',
    async () => {
      const whole = await makeVideo(path.join(dir, 'whole.mp4'), {
        width: 360,
        height: 640,
        durationSeconds: 4,
        audio: true,
      });
      // faststart: the index comes first, so the cut file still opens and claims 4 s.
      const faststart = path.join(dir, 'faststart.mp4');
      await makeVideo(faststart, { width: 360, height: 640, durationSeconds: 4, audio: true });
      const indexed = path.join(dir, 'indexed.mp4');
      await runMediaTool('ffmpeg', [
        ...['-v', 'error', '-y', '-i', faststart, '-c', 'copy', '-movflags', '+faststart', indexed],
      ]);
      for (const source of [indexed, whole]) {
        const bytes = await readFile(source);
        await expectRefused('cut.mp4', bytes.subarray(0, Math.floor(bytes.length / 2)));
      }
    },
  );

  it.runIf(heavyOnThisDatabase)(
    'an MP4 whose header claims 100 hours for 2 s of video',
    async () => {
      const real = await readFile(
        await makeVideo(path.join(dir, 'short.mp4'), {
          width: 360,
          height: 640,
          durationSeconds: 2,
        }),
      );
      const hundredHours = 100 * 3600;
      await expectRefused(
        'long.mp4',
        claimDuration(claimDuration(real, 'mvhd', hundredHours), 'mdhd', hundredHours),
      );
    },
  );

  it.runIf(heavyOnThisDatabase)(
    'a timestamp jump: two 4 s MPEG-TS segments, the second stamped 10,000 s later',
    async () => {
      // Probed as a 2.8 h source whose packets really end at 10,004 s (so the tail check agreed);
      // the meme analysis then placed extracts in the empty span and the compilation grew to 10 GB.
      const first = path.join(dir, 'segment.ts');
      await makeVideo(first, { width: 360, height: 640, durationSeconds: 4, audio: true });
      const later = path.join(dir, 'segment-later.ts');
      await runMediaTool('ffmpeg', [
        ...['-v', 'error', '-y', '-i', first, '-c', 'copy', '-output_ts_offset', '10000'],
        ...['-f', 'mpegts', later],
      ]);
      const jump = Buffer.concat([await readFile(first), await readFile(later)]);
      await expectRefused('jump.ts', jump);
      // A jump in the middle, dense again at the end (the tail check alone would pass it).
      const third = path.join(dir, 'segment-third.ts');
      await runMediaTool('ffmpeg', [
        ...['-v', 'error', '-y', '-i', first, '-c', 'copy', '-output_ts_offset', '10004'],
        ...['-f', 'mpegts', third],
      ]);
      await expectRefused('jump-middle.ts', Buffer.concat([jump, await readFile(third)]));
    },
  );

  it('still accepts the real video the crafted ones imitate', async () => {
    const upload = await tusUpload(t.url, attacker, victimFile, { filename: 'mine.mp4' });
    expect(upload.status, upload.body).toBe(204);
  });
});
