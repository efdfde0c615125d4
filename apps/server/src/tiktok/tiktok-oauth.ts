import type { z } from 'zod';
import { invalidResponse, type RequestOptions, type TikTokHttp } from './tiktok-http.ts';
import { tokenResponseSchema } from './tiktok-schemas.ts';

export type TikTokScope =
  | 'user.info.basic'
  | 'user.info.profile'
  | 'user.info.stats'
  | 'video.list'
  | 'video.upload'
  | 'video.publish';

export interface TikTokTokenSet {
  accessToken: string;
  /** Seconds; store `now + expiresIn * 1000`, TikTok's lifetimes vary. */
  expiresIn: number;
  openId: string;
  refreshExpiresIn: number;
  /** Always store it: TikTok rotates refresh tokens and the previous one stops working. */
  refreshToken: string;
  /** Granted scopes: the person may have declined some of those requested. */
  scopes: string[];
  /** "Bearer" when TikTok says; null when it does not (not every answer carries it). */
  tokenType: string | null;
}

export interface AuthorizeUrlInput {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  scopes: readonly TikTokScope[];
  disableAutoAuth?: boolean;
  /**
   * The username of the card being connected, as `username_hint`: the sandbox pre-fills its
   * consent page with it; TikTok documents no such parameter and, as OAuth 2.0 requires of an
   * authorization server (RFC 6749 §3.1), ignores it.
   */
  usernameHint?: string;
}

function toTokenSet(token: z.infer<typeof tokenResponseSchema>): TikTokTokenSet {
  return {
    accessToken: token.access_token,
    expiresIn: token.expires_in,
    openId: token.open_id,
    refreshExpiresIn: token.refresh_expires_in,
    refreshToken: token.refresh_token,
    scopes: token.scope
      .split(',')
      .map((scope) => scope.trim())
      .filter((scope) => scope.length > 0),
    tokenType: token.token_type ?? null,
  };
}

/** Login Kit: the authorize URL, and the token endpoint's exchange, refresh and revoke. */
export function createTikTokOAuth(
  http: TikTokHttp,
  app: { clientKey: string; clientSecret: string },
) {
  async function tokenCall(
    operation: string,
    form: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<TikTokTokenSet> {
    const response = await http.oauthCall(operation, '/v2/oauth/token/', form, signal);
    const token = tokenResponseSchema.safeParse(response.json);
    if (!token.success) {
      throw invalidResponse(operation, response, 'The token response is missing fields.');
    }
    return toTokenSet(token.data);
  }

  return {
    buildAuthorizeUrl(input: AuthorizeUrlInput): string {
      const query = new URLSearchParams({
        client_key: app.clientKey,
        scope: input.scopes.join(','),
        response_type: 'code',
        redirect_uri: input.redirectUri,
        state: input.state,
        code_challenge: input.codeChallenge,
        code_challenge_method: 'S256',
      });
      if (input.disableAutoAuth === true) query.set('disable_auto_auth', '1');
      if (input.usernameHint !== undefined) query.set('username_hint', input.usernameHint);
      return `${http.authBase}/v2/auth/authorize/?${query.toString()}`;
    },

    exchangeCode(
      input: { code: string; redirectUri: string; codeVerifier: string },
      requestOptions?: RequestOptions,
    ): Promise<TikTokTokenSet> {
      return tokenCall(
        'exchange_code',
        {
          client_key: app.clientKey,
          client_secret: app.clientSecret,
          code: input.code,
          grant_type: 'authorization_code',
          redirect_uri: input.redirectUri,
          code_verifier: input.codeVerifier,
        },
        requestOptions?.signal,
      );
    },

    refreshToken(refreshToken: string, requestOptions?: RequestOptions): Promise<TikTokTokenSet> {
      return tokenCall(
        'refresh_token',
        {
          client_key: app.clientKey,
          client_secret: app.clientSecret,
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
        },
        requestOptions?.signal,
      );
    },

    async revokeToken(token: string, requestOptions?: RequestOptions): Promise<void> {
      await http.oauthCall(
        'revoke_token',
        '/v2/oauth/revoke/',
        { client_key: app.clientKey, client_secret: app.clientSecret, token },
        requestOptions?.signal,
      );
    },
  };
}
