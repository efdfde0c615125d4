import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUpViaApi, type TestApp } from '../../test-support/app.ts';

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({}, { listen: true });
  cookie = await signUpViaApi(t.app, { email: 'metadata@example.com' }, t.url);
});
afterAll(async () => {
  await t.close();
});

const base64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

/** Upload-Metadata from decoded values (null: a key without value). */
const metadataHeader = (entries: Record<string, string | null>) =>
  Object.entries(entries)
    .map(([key, value]) => (value === null ? key : `${key} ${base64(value)}`))
    .join(',');

function create(headers: Record<string, string>) {
  return fetch(`${t.url}/api/uploads`, {
    method: 'POST',
    headers: { cookie, 'tus-resumable': '1.0.0', 'upload-length': '100', ...headers },
  });
}

/** Everything an upload can leave behind: staged bytes, reservations, media rows. */
async function leftovers() {
  const staged = await readdir(path.join(t.config.dataDir, 'media', '.tus-uploads')).catch(
    () => [],
  );
  const db = t.context.database.db;
  return {
    staged: staged.sort(),
    reservations: (await db.selectFrom('upload_reservations').select('upload_id').execute())
      .map((row) => row.upload_id)
      .sort(),
    media: (await db.selectFrom('media').select('id').execute()).map((row) => row.id).sort(),
  };
}

describe('tus upload metadata', () => {
  // The page checks the size itself once it has read the limit; until then the server's refusal
  // is what the person reads, so it names the limit (it said 'Maximum size exceeded' in plain text,
  // and the page showed TikTok's 4 GB instead of this server's limit).
  it('refuses a file declared above MAX_UPLOAD_BYTES saying that limit, before storing anything', async () => {
    const before = await leftovers();
    const maxBytes = t.config.uploads.maxBytes;
    const created = await create({
      'upload-length': String(maxBytes + 1),
      'upload-metadata': metadataHeader({ filename: 'huge.mp4' }),
    });
    expect(created.status).toBe(413);
    expect(await created.json()).toMatchObject({
      code: 'media_rejected',
      reasons: ['file_too_big'],
      maxBytes,
    });
    expect(await leftovers()).toEqual(before);
  });

  it('refuses a NUL in the file name before storing anything (was a 500 and an orphan file)', async () => {
    const before = await leftovers();
    const created = await create({
      'upload-metadata': metadataHeader({ filename: 'clip\u0000.mp4' }),
    });
    expect(created.status).toBe(400);
    expect(await created.json()).toMatchObject({
      code: 'media_rejected',
      reasons: ['invalid_file_name'],
    });
    expect(await leftovers()).toEqual(before);
  });

  it.each([
    ['a name of 256 characters', { filename: `${'a'.repeat(252)}.mp4` }, 'invalid_file_name'],
    ['a line break in the name', { filename: 'clip\n.mp4' }, 'invalid_file_name'],
    [
      'a right-to-left override in the name',
      { filename: 'clip\u202egpj.mp4' },
      'invalid_file_name',
    ],
    ['a blank name', { filename: '   ' }, 'invalid_file_name'],
    ['a control character in Uppy’s name', { name: 'a\u0007.mp4' }, 'invalid_file_name'],
    ['an unknown purpose', { filename: 'a.mp4', purpose: 'admin' }, 'invalid_upload'],
    ['a file type that is no MIME type', { filetype: 'video mp4 <script>' }, 'invalid_upload'],
    [
      'an oversized extra entry',
      { filename: 'a.mp4', comment: 'x'.repeat(2000) },
      'invalid_upload',
    ],
    [
      'too many entries',
      Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`k${index}`, 'v'])),
      'invalid_upload',
    ],
  ])('refuses %s with a translated reason', async (_label, metadata, reason) => {
    const before = await leftovers();
    const created = await create({ 'upload-metadata': metadataHeader(metadata) });
    expect(created.status).toBe(400);
    expect(await created.json()).toMatchObject({ code: 'media_rejected', reasons: [reason] });
    expect(await leftovers()).toEqual(before);
  });

  it('accepts what tus-js-client and Uppy send, and keeps only what the app reads', async () => {
    const fromTusJs = await create({
      // tus-js-client sends `filetype ` (no value) when the browser does not know the type.
      'upload-metadata':
        'filename ' + base64('Vidéo été 🎬.mov') + ',filetype ,purpose ' + base64('source'),
    });
    expect(fromTusJs.status).toBe(201);
    const fromUppy = await create({
      'upload-metadata': metadataHeader({
        relativePath: null,
        name: 'clip.mp4',
        type: 'video/mp4',
        filetype: 'video/mp4',
        filename: 'clip.mp4',
      }),
    });
    expect(fromUppy.status).toBe(201);

    const probe = await fetch(new URL(fromTusJs.headers.get('location') ?? '', `${t.url}/`), {
      method: 'HEAD',
      headers: { cookie, 'tus-resumable': '1.0.0' },
    });
    expect(probe.headers.get('upload-metadata')).toBe(
      metadataHeader({ filename: 'Vidéo été 🎬.mov', filetype: '', purpose: 'source' }),
    );
  });

  it('answers 400 to Upload-Concat, which it does not support (was 501)', async () => {
    const before = await leftovers();
    const partial = await create({ 'upload-concat': 'partial' });
    expect(partial.status).toBe(400);
    expect(await partial.json()).toMatchObject({
      code: 'validation_failed',
      fields: { _: 'media.rejected.invalid_upload' },
      message: expect.stringContaining('Upload-Concat') as unknown,
    });
    expect(await leftovers()).toEqual(before);
  });
});
