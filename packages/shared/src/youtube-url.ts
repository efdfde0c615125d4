/**
 * The one rule for a YouTube link, shared by the form (instant message) and the API (enforced by
 * the meme schema, and again by the worker before yt-dlp runs). The link is user input that the
 * server hands to a downloader, so it is parsed (WHATWG URL), checked against an explicit host
 * allow-list, reduced to its 11-character video id and rebuilt as YouTube's canonical watch URL:
 * nothing the user typed except the id ever reaches yt-dlp. Anything else is refused, without any
 * network access, with the same message whatever the host.
 */

/** Hosts a pasted link may name; nothing else, not even other subdomains. */
export const YOUTUBE_HOSTS: readonly string[] = [
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
];

/** Longer text is refused before parsing (the API's limit too). */
export const MAX_YOUTUBE_URL_LENGTH = 2000;

/** YouTube video ids: 11 characters of the URL-safe base64 alphabet. */
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/** youtube.com paths that name a video in their second segment: /shorts/ID, /embed/ID… */
const ID_PATH_PREFIXES = new Set(['shorts', 'embed', 'live', 'v']);

/**
 * A video link `parseYouTubeUrl` vouched for: only it can make one (private constructor and
 * field), so code that holds a YouTubeLink can hand `url` to a downloader without checking again.
 */
export class YouTubeLink {
  readonly #videoId: string;

  private constructor(videoId: string) {
    this.#videoId = videoId;
  }

  /** The 11-character video id. */
  get videoId(): string {
    return this.#videoId;
  }

  /** `https://www.youtube.com/watch?v=<id>`: the only URL yt-dlp is ever given. */
  get url(): string {
    return canonicalYouTubeUrl(this.#videoId);
  }

  /** See parseYouTubeUrl. */
  static parse(input: string): YouTubeLink | null {
    const videoId = videoIdFromUrl(input);
    return videoId === null ? null : new YouTubeLink(videoId);
  }
}

/** YouTube's canonical watch URL of a video id (Shorts play there too). */
export function canonicalYouTubeUrl(videoId: string): string {
  return `https://www.youtube.com/watch?v=${videoId}`;
}

/**
 * Reads a YouTube video link as people paste it (`https://www.youtube.com/watch?v=ID`,
 * `youtu.be/ID`, `/shorts/ID`, `/embed/ID`, `/live/ID`, `/v/ID`; http or https, the scheme may be
 * left out; surrounding spaces are ignored) and returns its id and canonical URL, or null for
 * anything else: another host or scheme, user info, a port other than the default, an IP address,
 * spaces or control characters inside, backslashes, non-ASCII or percent-encoded host, no valid id.
 */
export function parseYouTubeUrl(input: string): YouTubeLink | null {
  return YouTubeLink.parse(input);
}

function videoIdFromUrl(input: string): string | null {
  if (input.length > MAX_YOUTUBE_URL_LENGTH) return null;
  const text = input.trim();
  // Printable ASCII only: WHATWG URL silently drops tabs and newlines and maps Unicode lookalikes
  // and backslashes; refusing them keeps what the user sees the same as what is checked.
  if (!/^[\x21-\x7e]+$/.test(text) || text.includes('\\')) return null;
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(text);
  if (hasScheme ? !/^https?:\/\/[^/]/i.test(text) : text.startsWith('/')) return null;
  const absolute = hasScheme ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(absolute);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username !== '' || url.password !== '' || url.port !== '') return null;
  // The authority exactly as typed must be the host the parser understood (plus at most the
  // scheme's default port): no '@', no percent-encoding, no decimal/hex IP the parser rewrote.
  const typedAuthority = (absolute.slice(absolute.indexOf('//') + 2).split(/[/?#]/)[0] ?? '')
    .toLowerCase()
    .replace(url.protocol === 'https:' ? /:443$/ : /:80$/, '');
  if (typedAuthority !== url.hostname || !YOUTUBE_HOSTS.includes(url.hostname)) return null;
  const videoId = videoIdOf(url);
  return videoId !== null && VIDEO_ID.test(videoId) ? videoId : null;
}

/** Whether the form may send this link (the API accepts exactly the same ones). */
export function isYouTubeUrl(input: string): boolean {
  return parseYouTubeUrl(input) !== null;
}

function videoIdOf(url: URL): string | null {
  // An optional trailing slash ('/shorts/ID/'), nothing more.
  const segments = url.pathname.replace(/\/$/, '').split('/').slice(1);
  if (url.hostname === 'youtu.be') {
    return segments.length === 1 ? (segments[0] ?? null) : null;
  }
  if (segments.length === 1 && segments[0] === 'watch') {
    // From the raw query, not URLSearchParams: a percent-encoded id is not an id as typed.
    const values = url.search
      .slice(1)
      .split('&')
      .filter((pair) => pair === 'v' || pair.startsWith('v='))
      .map((pair) => pair.slice(2));
    return values.length === 1 ? (values[0] ?? null) : null;
  }
  if (segments.length === 2 && ID_PATH_PREFIXES.has(segments[0] ?? '')) {
    return segments[1] ?? null;
  }
  return null;
}
