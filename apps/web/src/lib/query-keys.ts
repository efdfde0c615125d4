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
    /** A 'you authorised another account' choice (single use: never refetched once answered). */
    pendingConnection: (pendingId: string) => ['pending-connections', pendingId],
  },
  /** Every list of posts (queue, history, calendar): invalidating this reaches them all. */
  posts: ['posts'],
  /** Under `posts`: whatever invalidates the posts also refreshes every calendar range. */
  calendars: ['posts', 'calendar'],
  calendar: (range: { from: string; to: string; timeZone: string }) => [
    'posts',
    'calendar',
    range.from,
    range.to,
    range.timeZone,
  ],
  /** The schedule form's saved drafts. */
  drafts: ['drafts'],
  planning: {
    /** An account's weekly posting slots and next free ones (they move as posts are added). */
    slots: (accountId: string) => ['posts', 'slots', accountId],
    /** The slots a form's timing would give (they depend on the posts already planned). */
    preview: (body: object) => ['posts', 'preview', body],
    /** Each account's posts today against the daily cap. */
    today: (date: string, timeZone: string) => ['posts', 'today', date, timeZone],
  },
  postPages: (list: 'queue' | 'history', filters: object) => ['posts', list, filters],
  /** One post (a notification's link): under `posts`, so every post change refreshes it. */
  post: (id: string) => ['posts', 'one', id],
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
  /** The bell's list and the email choices of /settings. */
  notifications: { list: ['notifications'], settings: ['notifications', 'settings'] },
  publicConfig: ['public-config'],
  /** My latest 'download my data' archive (polled while it is prepared). */
  dataExport: ['data-export'],
} as const;
