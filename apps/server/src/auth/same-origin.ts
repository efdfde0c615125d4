import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/app-error.ts';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

function singleHeader(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * Refuses a state-changing request (anything but GET/HEAD/OPTIONS) that a browser says comes from
 * another site, instead of relying on SameSite=Lax alone (which a sibling subdomain or an old
 * browser gets around). Browsers send `Origin` on every cross-origin POST/PUT/PATCH/DELETE and
 * `Sec-Fetch-Site` on every request; either one naming another site is enough to refuse.
 * Requests with neither come from non-browser clients (the admin CLI, curl, TikTok's servers):
 * they carry no ambient cookie a third-party page could have made them send, so they pass.
 *
 * Same origin is PUBLIC_URL's, or the origin the request itself was addressed to (the Host it
 * reached, e.g. http://127.0.0.1:3000 when PUBLIC_URL says localhost): a page on another site
 * cannot make a browser send a matching Origin, so both are safe.
 */
export function assertSameOriginRequest(request: FastifyRequest, publicOrigin: string): void {
  if (safeMethods.has(request.method)) return;
  const fetchSite = singleHeader(request, 'sec-fetch-site');
  const origin = singleHeader(request, 'origin');
  const crossSiteFetch =
    fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none';
  const foreignOrigin =
    origin !== undefined &&
    origin !== publicOrigin &&
    origin !== `${request.protocol}://${request.host}`;
  if (crossSiteFetch || foreignOrigin) {
    throw new AppError('forbidden', 'Cross-site request refused', { _: 'errors.crossSite' });
  }
}
