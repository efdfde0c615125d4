import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';

// The web app's page (index.html) as sent for each route: with `<link rel="modulepreload">` for
// the route's chunks and its stylesheets, so the browser fetches the app and the screen beside the
// entry rather than after it (docs/decisions/037-first-load.md). The web build lists each route's
// files (apps/web/scripts/route-budgets.mjs writes dist/.vite/route-preloads.json). Scripts are
// named at low priority, as the build marks the entry's (apps/web/vite.config.ts): the stylesheet
// and the API requests go first, and the spinner paints without waiting for them. Every page is
// made once, at startup; each of its encodings is compressed when first asked for, then kept
// (brotli at its best setting: ≈ 180 ms for all of them, too much to spend on every start).
//
// A signed-in visitor's page also names the API requests its first screen makes
// (`<link rel="preload" as="fetch">`: /api/me, then the screen's list), so they leave with the
// scripts instead of after them. The page carries addresses only, never data: it stays one static
// file per route and variant. A signed-out visitor gets none (each would be a 401 in the console).

export interface SpaPage {
  etag: string;
  /** The page in an encoding: compressed on the first call for it, then kept. */
  body: (encoding: 'br' | 'gzip' | 'identity') => Buffer;
}

/** A route's variants: signed out, signed in, and signed in with a query string in the address. */
export interface SpaRoutePages {
  signedOut: SpaPage;
  signedIn: SpaPage;
  /**
   * Signed in, at an address with a query (`/scheduler?status=failed`): the query may narrow the
   * screen's list, so only /api/me is named (a preload the screen does not use is wasted).
   */
  signedInWithQuery: SpaPage;
}

interface RoutePreloads {
  js: string[];
  css: string[];
  /** The API addresses the first screen requests, /api/me first (absent in older builds). */
  data?: string[];
}

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/**
 * index.html with the route's files named in its head, and the API requests in `data` (`crossorigin`:
 * the same credentials mode as the app's own same-origin fetch, so the browser reuses the answer).
 */
function pageWithPreloads(
  html: string,
  preloads: Pick<RoutePreloads, 'js' | 'css'>,
  data: readonly string[] = [],
): string {
  const links = [
    ...data.map(
      (address) => `<link rel="preload" as="fetch" crossorigin href="${escapeAttribute(address)}">`,
    ),
    ...preloads.css.map(
      (file) => `<link rel="stylesheet" crossorigin href="/${escapeAttribute(file)}">`,
    ),
    ...preloads.js.map(
      (file) =>
        `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${escapeAttribute(file)}">`,
    ),
  ].join('\n    ');
  if (!html.includes('</head>')) throw new Error('index.html has no </head>');
  return html.replace('</head>', `  ${links}\n  </head>`);
}

function compressedPage(html: string): SpaPage {
  const identity = Buffer.from(html);
  const compress = {
    br: () =>
      brotliCompressSync(identity, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      }),
    gzip: () => gzipSync(identity, { level: 9 }),
  };
  const compressed: Partial<Record<'br' | 'gzip', Buffer>> = {};
  return {
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
    body: (encoding) =>
      encoding === 'identity' ? identity : (compressed[encoding] ??= compress[encoding]()),
  };
}

/**
 * The page for each route that loads more than the entry, by path (no trailing slash), or an
 * empty map when the build lists none (a build before this file existed, or a test's stand-in).
 */
export function loadSpaPages(root: string): Map<string, SpaRoutePages> {
  const listing = path.join(root, '.vite', 'route-preloads.json');
  const pages = new Map<string, SpaRoutePages>();
  if (!existsSync(listing)) return pages;
  const html = readFileSync(path.join(root, 'index.html'), 'utf8');
  const routes = JSON.parse(readFileSync(listing, 'utf8')) as Record<string, RoutePreloads>;
  for (const [route, preloads] of Object.entries(routes)) {
    const data = preloads.data ?? [];
    pages.set(route, {
      signedOut: compressedPage(pageWithPreloads(html, preloads)),
      signedIn: compressedPage(pageWithPreloads(html, preloads, data)),
      signedInWithQuery: compressedPage(
        pageWithPreloads(
          html,
          preloads,
          data.filter((address) => address === '/api/me'),
        ),
      ),
    });
  }
  return pages;
}

/** The variant of a route's page for a request (see SpaRoutePages). */
export function pageFor(pages: SpaRoutePages, signedIn: boolean, url: string): SpaPage {
  if (!signedIn) return pages.signedOut;
  return url.includes('?') ? pages.signedInWithQuery : pages.signedIn;
}

const negotiator = new Negotiator<'br' | 'gzip' | 'identity'>({
  supportedValues: ['br', 'gzip', 'identity'],
});

/** The encoding to send for an Accept-Encoding header (none: the plain page). */
export function pageEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | 'identity' {
  if (!acceptEncoding) return 'identity';
  return negotiator.negotiate(acceptEncoding) ?? 'identity';
}
