import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { errorCodes } from '@cadence/shared/errors';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeVideo } from '../../test-support/media-fixtures.ts';
import { api, signUp, useScheduleTestApp, type TestUser } from '../schedules/test-kit.ts';

const kit = useScheduleTestApp('cadence-deletion-races-');

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every file or folder under DATA_DIR whose path names the user: what deletion must leave none of. */
function pathsNaming(user: TestUser): string[] {
  return readdirSync(kit.t.config.dataDir, { recursive: true })
    .map(String)
    .filter((name) => name.includes(user.id));
}

/** Deletes the user's account as POST /api/me/delete does (the password is checked there). */
const deleteAccount = (user: TestUser) => kit.t.context.dataRights.deleteAccount(user.id);

/**
 * A request is authenticated when it starts; the person can delete their account (in another tab)
 * before it writes. Each test below makes the deletion land at that moment, through the real
 * services, and checks what a client and the disk see afterwards.
 */
describe('a request that loses the race with its owner deleting their account', () => {
  it('is refused with a 4xx of ours, not a 500, on any route that writes (adding an account)', async () => {
    const user = await signUp(kit.t, 'race-route@example.com');
    const add = kit.t.context.accounts.add.bind(kit.t.context.accounts);
    vi.spyOn(kit.t.context.accounts, 'add').mockImplementation(async (userId, username) => {
      await deleteAccount(user);
      return add(userId, username);
    });

    const response = await api(kit.t, user.cookie, 'POST', '/api/accounts', { username: 'late' });

    expect(response.statusCode, response.body).toBeLessThan(500);
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(errorCodes).toContain(response.json<{ code: string }>().code);
  });

  it('is refused when it is an upload finishing, and leaves no file behind', async () => {
    const user = await signUp(kit.t, 'race-upload@example.com');
    const video = await readFile(
      await makeVideo(path.join(kit.dir, 'race-upload.mp4'), { width: 360, height: 640 }),
    );
    const created = await kit.t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        origin: kit.t.url,
        cookie: user.cookie,
        'tus-resumable': '1.0.0',
        'upload-length': String(video.length),
        'upload-metadata': `filename ${Buffer.from('race.mp4').toString('base64')}`,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    // The last bytes are in; the account goes while the file becomes media (probe, thumbnail).
    const { storage } = kit.t.context;
    const withLocalFile = storage.withLocalFile.bind(storage);
    vi.spyOn(storage, 'withLocalFile').mockImplementation(async (key, use) => {
      const result = await withLocalFile(key, use);
      await deleteAccount(user);
      return result;
    });

    const finished = await kit.t.app.inject({
      method: 'PATCH',
      url: created.headers.location ?? '',
      headers: {
        origin: kit.t.url,
        cookie: user.cookie,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: video,
    });

    expect(finished.statusCode, finished.body).toBe(410);
    expect(pathsNaming(user)).toEqual([]);
  });

  it('leaves no file behind when a video is stored between the sweep of its files and the user row', async () => {
    const user = await signUp(kit.t, 'race-sweep@example.com');
    const file = await makeVideo(path.join(kit.dir, 'race-sweep.mp4'), { width: 360, height: 640 });
    const { storage } = kit.t.context;
    const deleteFolder = storage.deleteFolder.bind(storage);
    let sweeps = 0;
    vi.spyOn(storage, 'deleteFolder').mockImplementation(async (prefix) => {
      await deleteFolder(prefix);
      // A render or an upload of theirs finishing right after the first sweep: file and row.
      if (sweeps++ === 0) {
        await kit.t.context.media.createFromFile(user.id, {
          localPath: file,
          kind: 'upload',
          originalName: 'late.mp4',
        });
      }
    });

    await deleteAccount(user);

    expect(pathsNaming(user)).toEqual([]);
  });
});
