import { setTimeout as delay } from 'node:timers/promises';
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { pageContentSecurityPolicy, renderErrorPage } from './consent-page.ts';
import {
  bearerToken,
  errorShapeOf,
  sendEnvelopeError,
  sendHtml,
  sendInjectedFailure,
  sendOAuthError,
} from './http.ts';
import type { PublicBaseUrl, SandboxStateOptions } from './options.ts';
import { registerAdminRoutes } from './routes/admin-routes.ts';
import { registerConsentRoutes } from './routes/consent-routes.ts';
import { registerContentPostingRoutes } from './routes/content-posting-routes.ts';
import { registerTokenRoutes } from './routes/token-routes.ts';
import { registerUploadRoute, VIDEO_CONTENT_TYPES } from './routes/upload-route.ts';
import { registerUserInfoRoute } from './routes/user-info-route.ts';
import { registerVideoPage } from './routes/video-page.ts';
import { registerVideoRoutes } from './routes/video-routes.ts';
import { SandboxState } from './sandbox-state.ts';

export interface TikTokSandboxOptions extends SandboxStateOptions {
  /** Share state with the caller (tests, ledger inspection); else one is created from the options. */
  state?: SandboxState;
  /**
   * Origin + prefix that upload_url and avatar URLs start with. Default: the request's
   * protocol and Host, plus the prefix the plugin is registered under.
   */
  publicBaseUrl?: PublicBaseUrl;
  /**
   * Expose the test tooling (default false): `POST {prefix}/_control/faults` and
   * `GET {prefix}/_ledger`, which lists every account and post the sandbox holds, to anyone.
   */
  enableControl?: boolean;
}

function jsonBodyError(): FastifyError {
  const error: FastifyError = Object.assign(new Error('The body is not valid JSON.'), {
    code: 'FST_ERR_CTP_INVALID_JSON_BODY',
    statusCode: 400,
  });
  return error;
}

/**
 * A local stand-in for TikTok's v2 Login Kit and Content Posting API. Register it under any
 * prefix; the same origin then serves as both TIKTOK_AUTH_BASE and TIKTOK_API_BASE.
 */
export const tiktokSandbox: FastifyPluginAsync<TikTokSandboxOptions> = async (fastify, options) => {
  const state = options.state ?? new SandboxState(options);
  // Saves the sandbox's accounts (when persisted) and leaves no timer behind.
  fastify.addHook('onClose', (_instance, done) => {
    state.flush();
    done();
  });
  const prefix = fastify.prefix;
  const configured = options.publicBaseUrl;
  const publicBaseUrl = (request: FastifyRequest): string => {
    if (typeof configured === 'function') return configured(request);
    if (typeof configured === 'string') return configured.replace(/\/+$/, '');
    return `${request.protocol}://${request.host}${prefix}`;
  };

  await registerBodyParsers(fastify);
  injectFaults(fastify, state);
  answerErrorsInTikTokShape(fastify, state);

  // Login Kit (OAuth), then the Bearer-authenticated v2 API: user info, Content Posting, Display.
  registerConsentRoutes(fastify, state);
  registerTokenRoutes(fastify, state);
  registerUserInfoRoute(fastify, state, publicBaseUrl);
  registerContentPostingRoutes(fastify, state, publicBaseUrl);
  registerVideoRoutes(fastify, state, publicBaseUrl);
  registerUploadRoute(fastify, state);
  registerAdminRoutes(fastify, state, options.enableControl ?? false);
  registerVideoPage(fastify, state);
};

/** Forms, JSON as TikTok's SDKs send it, and video chunks left as streams. */
async function registerBodyParsers(fastify: FastifyInstance): Promise<void> {
  // Parsers are scoped to this plugin; a host app may already parse forms its own way.
  if (!fastify.hasContentTypeParser('application/x-www-form-urlencoded')) {
    await fastify.register(formbody);
  }
  // TikTok's SDKs POST creator_info with a JSON content type and no body at all.
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, {});
        return;
      }
      try {
        const parsed: unknown = JSON.parse(text);
        done(null, parsed);
      } catch {
        done(jsonBodyError(), undefined);
      }
    },
  );
  for (const type of VIDEO_CONTENT_TYPES) {
    if (fastify.hasContentTypeParser(type)) fastify.removeContentTypeParser(type);
  }
  // Chunks stay streams: the upload route hashes them as they arrive.
  fastify.addContentTypeParser(VIDEO_CONTENT_TYPES, (_request, payload, done) => {
    done(null, payload);
  });
}

/** Test tooling's latency, injected failures and chaos, before an endpoint answers. */
function injectFaults(fastify: FastifyInstance, state: SandboxState): void {
  fastify.addHook('onRequest', async (request, reply) => {
    const endpoint = request.routeOptions.config.tiktokSandboxEndpoint;
    if (endpoint === undefined) return;
    const latency = state.control.latencyMs;
    if (latency > 0) await delay(latency);
    const failure = state.control.takeFailure(endpoint);
    if (failure !== null) return sendInjectedFailure(reply, state, endpoint, failure);
    const token = bearerToken(request);
    const chaos = state.control.drawChaos(endpoint, state.now(), token);
    if (chaos === null) return;
    if (chaos.kind === 'timeout') {
      // Held, then dropped unanswered: to the client a timeout or a connection lost mid-request.
      reply.hijack();
      await delay(chaos.holdMs);
      request.raw.socket.destroy();
      return;
    }
    const status = chaos.kind === 'rate_limit' ? 429 : chaos.status;
    return sendInjectedFailure(reply, state, endpoint, { type: 'http_error', status });
  });
}

/** Errors of every endpoint in its own shape (HTML page, OAuth JSON or v2 envelope). */
function answerErrorsInTikTokShape(fastify: FastifyInstance, state: SandboxState): void {
  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    const endpoint = request.routeOptions.config.tiktokSandboxEndpoint;
    const status = error.statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'TikTok sandbox failure');
    // Whatever a client sends, the sandbox answers 4xx in TikTok's shape, never a bare 5xx page.
    const clientStatus = status >= 500 ? 500 : 400;
    const message = status >= 500 ? 'Internal error.' : error.message;
    if (endpoint === undefined) return reply.code(status).send({ error: message });
    switch (errorShapeOf(endpoint)) {
      case 'html':
        return sendHtml(
          reply,
          clientStatus,
          renderErrorPage(message),
          pageContentSecurityPolicy(null),
        );
      case 'oauth':
        return sendOAuthError(
          reply,
          state,
          clientStatus,
          status >= 500 ? 'server_error' : 'invalid_request',
          message,
        );
      case 'envelope':
        return sendEnvelopeError(
          reply,
          state,
          clientStatus,
          status >= 500 ? 'internal_error' : 'invalid_params',
          message,
        );
    }
  });
}
