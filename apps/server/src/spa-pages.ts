import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';

// The web app's page (index.html) as sent for each route: with `<link rel="modulepreload">` for
// the route's chunks and its stylesheets, so the browser fetches the app and the screen beside the
// entry rather than after it (docs/decisions/037-first-load.md). The web build lists each route's
// files (apps/web/scripts/route-budgets.mjs writes dist/.vite/route-preloads.json). Every page is made and
// compressed once, at startup: a request only picks one.

export interface SpaPage {
  etag: string;
  bodies: Record<'br' | 'gzip' | 'identity', Buffer>;
}

interface RoutePreloads {
  js: string[];
  css: string[];
}

const escapeAttribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** index.html with the route's files named in its head. */
function pageWithPreloads(html: string, preloads: RoutePreloads): string {
  const links = [
    ...preloads.css.map(
      (file) => `<link rel="stylesheet" crossorigin href="/${escapeAttribute(file)}">`,
    ),
    ...preloads.js.map(
      (file) => `<link rel="modulepreload" crossorigin href="/${escapeAttribute(file)}">`,
    ),
  ].join('\n    ');
  if (!html.includes('</head>')) throw new Error('index.html has no </head>');
  return html.replace('</head>', `  ${links}\n  </head>`);
}

function compressedPage(html: string): SpaPage {
  const identity = Buffer.from(html);
  return {
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
    bodies: {
      identity,
      br: brotliCompressSync(identity, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
        },
      }),
      gzip: gzipSync(identity, { level: 9 }),
    },
  };
}

/**
 * The page for each route that loads more than the entry, by path (no trailing slash), or an
 * empty map when the build lists none (a build before this file existed, or a test's stand-in).
 */
export function loadSpaPages(root: string): Map<string, SpaPage> {
  const listing = path.join(root, '.vite', 'route-preloads.json');
  const pages = new Map<string, SpaPage>();
  if (!existsSync(listing)) return pages;
  const html = readFileSync(path.join(root, 'index.html'), 'utf8');
  const routes = JSON.parse(readFileSync(listing, 'utf8')) as Record<string, RoutePreloads>;
  for (const [route, preloads] of Object.entries(routes)) {
    pages.set(route, compressedPage(pageWithPreloads(html, preloads)));
  }
  return pages;
}

const negotiator = new Negotiator<'br' | 'gzip' | 'identity'>({
  supportedValues: ['br', 'gzip', 'identity'],
});

/** The encoding to send for an Accept-Encoding header (none: the plain page). */
export function pageEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | 'identity' {
  if (!acceptEncoding) return 'identity';
  return negotiator.negotiate(acceptEncoding) ?? 'identity';
}
