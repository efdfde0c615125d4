import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import {
  createTempDir,
  makeVideo,
  type FixtureVideoOptions,
} from '../../apps/server/src/test-support/media-fixtures.ts';

/** A clip TikTok's limits accept as a post: 360×640 portrait at 30 fps, with sound. */
export const postableClip = {
  width: 360,
  height: 640,
  durationSeconds: 1,
  fps: 30,
  audio: true,
} as const satisfies FixtureVideoOptions;

export interface TempVideos<TName extends string> {
  /** The path of a video made for the file; only valid once its `beforeAll` has run. */
  path(name: TName): string;
  /** Every video's path, in the order they were given. */
  paths(): string[];
  /** The temporary folder the videos are in, for other files a test writes. */
  dir(): string;
}

/**
 * Registers the hooks that make a file's small real videos (ffmpeg, one `makeVideo` each) in a
 * temporary folder before its tests, and remove the folder after them. Keys are the file names
 * (the name an upload shows); values are the videos' options.
 */
export function useTempVideos<TName extends string>(
  prefix: string,
  videos: Record<TName, FixtureVideoOptions>,
): TempVideos<TName> {
  let temp: Awaited<ReturnType<typeof createTempDir>> | undefined;
  const made = new Map<string, string>();

  beforeAll(async () => {
    temp = await createTempDir(prefix);
    for (const [name, options] of Object.entries<FixtureVideoOptions>(videos)) {
      made.set(name, await makeVideo(path.join(temp.dir, name), options));
    }
  });
  afterAll(async () => {
    await temp?.cleanup();
  });

  const pathOf = (name: TName): string => {
    const file = made.get(name);
    if (file === undefined) throw new Error(`${name} is made in beforeAll: use it in a test`);
    return file;
  };
  return {
    path: pathOf,
    paths() {
      return Object.keys(videos).map((name) => pathOf(name as TName));
    },
    dir() {
      if (temp === undefined) throw new Error('the videos folder is made in beforeAll');
      return temp.dir;
    },
  };
}
