import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_YOUTUBE_URL_LENGTH,
  YOUTUBE_HOSTS,
  canonicalYouTubeUrl,
  isYouTubeUrl,
  parseYouTubeUrl,
} from './youtube-url.ts';

const ID = 'dQw4w9WgXcQ';
const WATCH = `https://www.youtube.com/watch?v=${ID}`;

describe('parseYouTubeUrl: links people paste', () => {
  it.each([
    WATCH,
    `http://www.youtube.com/watch?v=${ID}`,
    `https://youtube.com/watch?v=${ID}`,
    `https://m.youtube.com/watch?v=${ID}&feature=share`,
    `https://music.youtube.com/watch?v=${ID}&list=RDAMVM${ID}`,
    `https://www.youtube.com/watch?feature=youtu.be&v=${ID}&t=42s#comments`,
    `https://youtu.be/${ID}`,
    `https://youtu.be/${ID}?si=AbCdEfGh12345678&t=10`,
    `https://www.youtube.com/shorts/${ID}`,
    `https://youtube.com/shorts/${ID}/?feature=share`,
    `https://www.youtube.com/embed/${ID}?autoplay=1`,
    `https://www.youtube-nocookie.com/embed/${ID}`,
    `https://youtube-nocookie.com/embed/${ID}`,
    `https://www.youtube.com/live/${ID}?si=x`,
    `https://www.youtube.com/v/${ID}`,
    `https://www.youtube.com:443/watch?v=${ID}`,
    `http://youtu.be:80/${ID}`,
    `HTTPS://WWW.YouTube.COM/watch?v=${ID}`,
    // Without a scheme, as often copied from an address bar or a message.
    `www.youtube.com/watch?v=${ID}`,
    `youtube.com/shorts/${ID}`,
    `youtu.be/${ID}`,
    // Surrounding spaces and a trailing newline from the clipboard.
    `  https://youtu.be/${ID}\n`,
  ])('reads %j as the canonical watch URL', (input) => {
    const link = parseYouTubeUrl(input);
    expect(link?.videoId).toBe(ID);
    expect(link?.url).toBe(WATCH);
    expect(isYouTubeUrl(input)).toBe(true);
  });

  it('keeps ids with - and _ as they are', () => {
    expect(parseYouTubeUrl('https://youtu.be/-_aZ09-_aZ0')?.url).toBe(
      'https://www.youtube.com/watch?v=-_aZ09-_aZ0',
    );
  });
});

/** Hostile spellings: every one must be refused, with no network access involved. */
const hostile: [reason: string, input: string][] = [
  // The two.
  ['loopback with a youtu.be path', 'http://127.0.0.1:8080/youtu.be/x'],
  ['a local port, youtube.com in the query', 'http://localhost:5432/?youtube.com/'],
  ['a loopback video id path', `http://127.0.0.1/youtu.be/${ID}`],
  ['an internal watch page', `http://127.0.0.1:3000/watch?v=${ID}`],
  // IP literals in every spelling the WHATWG parser would rewrite to loopback or metadata hosts.
  ['decimal IPv4', `http://2130706433/watch?v=${ID}`],
  ['hex IPv4', `http://0x7f000001/watch?v=${ID}`],
  ['octal IPv4', `http://0177.0.0.1/watch?v=${ID}`],
  ['short IPv4', `http://127.1/watch?v=${ID}`],
  ['cloud metadata', `http://169.254.169.254/latest/meta-data/?youtube.com/watch?v=${ID}`],
  ['IPv6 loopback', `http://[::1]/watch?v=${ID}`],
  ['IPv4-mapped IPv6', `http://[::ffff:127.0.0.1]/youtu.be/${ID}`],
  ['IPv6 with zone-like text', `http://[fe80::1%25eth0]/watch?v=${ID}`],
  // Hosts that merely contain an allowed name.
  ['allowed name as a subdomain', `https://youtube.com.evil.com/watch?v=${ID}`],
  ['allowed name as a suffix', `https://evilyoutube.com/watch?v=${ID}`],
  ['another youtube.com subdomain', `https://studio.youtube.com/watch?v=${ID}`],
  ['allowed name in the path', `https://evil.com/youtube.com/watch?v=${ID}`],
  ['allowed name in the path (youtu.be)', `https://evil.com/youtu.be/${ID}`],
  ['allowed name in the query', `https://evil.com/?u=https://youtu.be/${ID}`],
  ['allowed name in the fragment', `https://evil.com/#https://youtu.be/${ID}`],
  ['trailing dot', `https://youtube.com./watch?v=${ID}`],
  ['lookalike TLD', `https://youtube.co/watch?v=${ID}`],
  // User info and ports.
  ['user info before an IP', `https://youtube.com@127.0.0.1/watch?v=${ID}`],
  ['user info before an allowed host', `https://evil.com@youtube.com/watch?v=${ID}`],
  ['empty user info', `https://@youtube.com/watch?v=${ID}`],
  ['user and password', `https://youtu.be:pass@youtu.be/${ID}`],
  ['explicit non-default port', `https://www.youtube.com:8443/watch?v=${ID}`],
  ['http default port on https', `https://www.youtube.com:80/watch?v=${ID}`],
  ['empty port', `https://www.youtube.com:/watch?v=${ID}`],
  ['padded default port', `https://www.youtube.com:0443/watch?v=${ID}`],
  // Backslashes, whitespace and control characters the parser would silently fix up.
  ['backslash authority', `https://127.0.0.1\\@youtube.com/watch?v=${ID}`],
  ['backslash path', `https:\\\\youtube.com\\watch?v=${ID}`],
  ['tab in the host', `https://you\ttube.com/watch?v=${ID}`],
  ['newline in the host', `https://youtube.com.evil\n.com/watch?v=${ID}`],
  ['space inside', `https://www.youtube.com/watch?v=${ID} https://evil.com`],
  ['NUL', `https://youtu.be/${ID}\u0000.evil.com`],
  ['text around the link', `look at youtu.be/${ID} please`],
  // Unicode lookalikes (IDNA would turn fullwidth letters into youtube.com).
  ['fullwidth letters', `https://ｙｏｕｔｕｂｅ.com/watch?v=${ID}`],
  ['Cyrillic о', `https://yоutube.com/watch?v=${ID}`],
  ['punycode of a lookalike', `https://xn--yutube-wqf.com/watch?v=${ID}`],
  ['fullwidth dot', `https://youtube．com/watch?v=${ID}`],
  ['zero-width space', `https://you\u200btube.com/watch?v=${ID}`],
  // Percent-encoding.
  ['encoded host', `https://%79outube.com/watch?v=${ID}`],
  ['encoded id in the path', `https://youtu.be/%64Qw4w9WgXcQ`],
  ['encoded id in the query', `https://www.youtube.com/watch?v=%64Qw4w9WgXcQ`],
  ['encoded path prefix', `https://www.youtube.com/%73horts/${ID}`],
  ['encoded @', `https://youtube.com%40127.0.0.1/watch?v=${ID}`],
  // Other schemes.
  ['javascript:', `javascript:alert(1)//youtube.com/watch?v=${ID}`],
  ['file:', `file:///etc/passwd?youtu.be/${ID}`],
  ['data:', `data:text/html,youtube.com/watch?v=${ID}`],
  ['ftp:', `ftp://youtube.com/watch?v=${ID}`],
  ['ws:', `ws://youtube.com/watch?v=${ID}`],
  ['protocol-relative', `//youtube.com/watch?v=${ID}`],
  ['too many slashes', `https:///youtube.com/watch?v=${ID}`],
  ['no slashes', `https:youtube.com/watch?v=${ID}`],
  ['yt-dlp search prefix', `ytsearch:youtube.com/${ID}`],
  ['option-looking text', `--exec=touch pwned youtube.com/`],
  // Allowed host, but no single valid video id.
  ['no id', 'https://www.youtube.com/'],
  ['host only', 'youtube.com'],
  ['youtu.be without id', 'https://youtu.be'],
  ['short id', `https://youtu.be/${ID.slice(1)}`],
  ['long id', `https://youtu.be/${ID}x`],
  ['id with a dot', 'https://youtu.be/dQw4w9WgX.Q'],
  ['two ids', `https://www.youtube.com/watch?v=${ID}&v=aaaaaaaaaaa`],
  ['empty v', 'https://www.youtube.com/watch?v='],
  ['playlist', 'https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG'],
  ['channel', 'https://www.youtube.com/@somechannel'],
  ['redirect page', `https://www.youtube.com/redirect?q=http://127.0.0.1/&v=${ID}`],
  ['attribution link', `https://www.youtube.com/attribution_link?u=/watch%3Fv%3D${ID}`],
  ['extra path segment', `https://youtu.be/${ID}/x`],
  ['shorts with extra segment', `https://www.youtube.com/shorts/${ID}/../../x`],
  ['unknown prefix', `https://www.youtube.com/clip/${ID}`],
  ['uppercase path', `https://www.youtube.com/Watch?v=${ID}`],
  // Sizes.
  ['empty', ''],
  ['spaces only', '   '],
  ['very long', `https://www.youtube.com/watch?v=${ID}&x=${'a'.repeat(MAX_YOUTUBE_URL_LENGTH)}`],
];

describe('parseYouTubeUrl: everything else', () => {
  it.each(hostile)('refuses %s: %j', (_reason, input) => {
    expect(parseYouTubeUrl(input)).toBe(null);
    expect(isYouTubeUrl(input)).toBe(false);
  });
});

const videoId = fc.stringMatching(/^[A-Za-z0-9_-]{11}$/);
/** A fixed seed: the same inputs on every run, so a failure can be replayed. */
const SEED = 20261124;

// Thousands of generated links take a few seconds on a busy 2-core machine.
describe('parseYouTubeUrl: properties', { timeout: 30_000 }, () => {
  it('whatever it accepts becomes exactly the canonical watch URL of an 11-character id', () => {
    const anything = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc
        .tuple(
          fc.constantFrom('https://', 'http://', '', 'HTTP://', '//', 'javascript:'),
          fc.constantFrom(...YOUTUBE_HOSTS, '127.0.0.1', 'localhost', 'evil.com'),
          fc.constantFrom('', ':443', ':80', ':8080', '.', '.evil.com', '@127.0.0.1'),
          fc.constantFrom('/watch?v=', '/', '/shorts/', '/embed/', '/x/', '/watch?x=1&v='),
          fc.oneof(videoId, fc.string({ maxLength: 14 })),
          fc.string({ maxLength: 10 }),
        )
        .map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(anything, (input) => {
        const link = parseYouTubeUrl(input);
        if (link === null) return;
        expect(link.videoId).toMatch(/^[A-Za-z0-9_-]{11}$/);
        expect(link.url).toBe(canonicalYouTubeUrl(link.videoId));
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  it('never accepts a host outside the allow-list, however the rest of the link looks', () => {
    const otherHost = fc.domain().filter((host) => !YOUTUBE_HOSTS.includes(host.toLowerCase()));
    const ipv4 = fc.ipV4().chain((ip) => fc.constantFrom(ip, `[::ffff:${ip}]`));
    fc.assert(
      fc.property(
        fc.constantFrom('https://', 'http://', ''),
        fc.oneof(
          otherHost,
          ipv4,
          fc.ipV6().map((ip) => `[${ip}]`),
        ),
        fc.constantFrom(
          `/watch?v=${ID}`,
          `/youtu.be/${ID}`,
          `/youtube.com/watch?v=${ID}`,
          `/?youtube.com/`,
          `/shorts/${ID}`,
          `.youtube.com/watch?v=${ID}`,
        ),
        (scheme, host, rest) => {
          expect(parseYouTubeUrl(`${scheme}${host}${rest}`)).toBe(null);
        },
      ),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('accepts every allowed host and link form for every valid id', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('https://', 'http://', ''),
        fc.constantFrom(...YOUTUBE_HOSTS.filter((host) => host !== 'youtu.be')),
        fc.constantFrom('/watch?v=', '/shorts/', '/embed/', '/live/', '/v/'),
        videoId,
        (scheme, host, form, id) => {
          expect(parseYouTubeUrl(`${scheme}${host}${form}${id}`)?.url).toBe(
            canonicalYouTubeUrl(id),
          );
          expect(parseYouTubeUrl(`${scheme}youtu.be/${id}`)?.url).toBe(canonicalYouTubeUrl(id));
        },
      ),
      { seed: SEED, numRuns: 500 },
    );
  });

  it('refuses a valid link with any control, space or non-ASCII character slipped inside', () => {
    const intruder = fc.oneof(
      fc.integer({ min: 0, max: 0x20 }),
      fc.constant(0x7f),
      fc.integer({ min: 0x80, max: 0xffff }).filter((code) => code < 0xd800 || code > 0xdfff),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: WATCH.length - 1 }), intruder, (at, code) => {
        const input = WATCH.slice(0, at) + String.fromCharCode(code) + WATCH.slice(at);
        expect(parseYouTubeUrl(input)).toBe(null);
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  it('refuses very long input before parsing it', () => {
    for (const size of [MAX_YOUTUBE_URL_LENGTH, 100_000, 5_000_000]) {
      expect(parseYouTubeUrl(`https://youtu.be/${ID}?x=${'a'.repeat(size)}`)).toBe(null);
      expect(parseYouTubeUrl('youtube.com/'.repeat(size / 10))).toBe(null);
    }
  });
});
