import { z } from 'zod';

/** Route params of everything addressed by a UUID (accounts, posts, stories, analyses). */
export const uuidParams = z.object({ id: z.uuid() });
