// Every TanStack Query key of the app, in one factory: a feature that reads or invalidates data
// another feature shows (a new post changes the accounts' quotas) names the same key, never a
// copy or a literal. Prefixes matter: invalidating `accounts.all` also reaches creator info.
export const queryKeys = {
  me: ['me'],
  /** The signed-in person's sessions (list-sessions) and the current one (get-session). */
  sessions: { all: ['sessions'], current: ['sessions', 'current'] },
  accounts: {
    all: ['accounts'],
    creatorInfo: (accountId: string) => ['accounts', accountId, 'creator-info'],
  },
  posts: ['posts'],
  media: (id: string) => ['media', id],
  memes: {
    all: ['memes'],
    detail: (id: string) => ['memes', id],
  },
  stories: ['stories'],
  analytics: {
    all: ['analytics'],
    accounts: ['analytics', 'accounts'],
    overview: (query: object) => ['analytics', 'overview', query],
    bestTimes: (accountId: string | null, timeZone: string) => [
      'analytics',
      'best-times',
      accountId,
      timeZone,
    ],
    posts: (ids: readonly string[]) => ['analytics', 'posts', ids],
  },
  publicConfig: ['public-config'],
} as const;
