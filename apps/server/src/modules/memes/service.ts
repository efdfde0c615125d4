import { createMemeAccess, type MemeAccessDeps } from './meme-access.ts';
import { createMemeCommands, type MemeCommandsDeps } from './meme-commands.ts';
import { createMemeQueries, type MemeQueriesDeps } from './meme-queries.ts';

export interface MemeServiceDeps extends MemeAccessDeps, MemeCommandsDeps, MemeQueriesDeps {}

/**
 * The meme detector (Pro), as the API sees it: requests, reads, cancel, recompile, thumbnails.
 * The work itself runs in the worker's stages (meme-stages.ts).
 */
export function createMemeService(deps: MemeServiceDeps) {
  const access = createMemeAccess(deps);
  return {
    assertPro: access.assertPro,
    ...createMemeQueries(deps, access),
    ...createMemeCommands(deps, access),
  };
}

export type MemeService = ReturnType<typeof createMemeService>;
