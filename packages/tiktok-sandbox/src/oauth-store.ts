import { timingSafeEqual } from 'node:crypto';
import {
  displayNameFor,
  newAuthorizationCode,
  newToken,
  openIdFor,
  sha256Hex,
  unionIdFor,
} from './ids.ts';
import type { PersistedOAuth } from './oauth-persistence.ts';
import type { ResolvedStateOptions, SandboxClient, SandboxScope } from './options.ts';
import { fail, ok, type Result } from './result.ts';

export interface SandboxUser {
  openId: string;
  unionId: string;
  username: string;
  displayName: string;
  clientKey: string;
  createdAt: number;
}

/** One consent: the tokens it yields share its scopes and die together on revoke. */
interface Grant {
  id: number;
  clientKey: string;
  openId: string;
  scopes: SandboxScope[];
  revokedAt: number | null;
}

interface AuthorizationCode {
  clientKey: string;
  redirectUri: string;
  openId: string;
  scopes: SandboxScope[];
  codeChallenge: string | null;
  createdAt: number;
  usedAt: number | null;
}

export interface TokenRecord {
  kind: 'access' | 'refresh';
  token: string;
  grantId: number;
  issuedAt: number;
  expiresAt: number;
  revokedAt: number | null;
  /** Refresh tokens only: when a refresh replaced it (it stops working then). */
  rotatedAt: number | null;
}

export type OAuthErrorCode =
  'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type';

export interface OAuthError {
  error: OAuthErrorCode;
  description: string;
}

/** The flat JSON TikTok answers on /v2/oauth/token/. */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  open_id: string;
  refresh_expires_in: number;
  refresh_token: string;
  scope: string;
  token_type: 'Bearer';
}

export interface AuthenticatedToken {
  user: SandboxUser;
  scopes: readonly SandboxScope[];
  clientKey: string;
}

const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export class OAuthStore {
  readonly users = new Map<string, SandboxUser>();
  readonly tokens = new Map<string, TokenRecord>();
  private readonly codes = new Map<string, AuthorizationCode>();
  private readonly grants = new Map<number, Grant>();
  private nextGrantId = 1;

  /** `onChange` runs after every change to users, grants or tokens (persistence hooks in here). */
  constructor(
    private readonly options: ResolvedStateOptions,
    private readonly onChange: () => void = () => undefined,
  ) {}

  findClient(clientKey: string): SandboxClient | undefined {
    return this.options.clients.find((client) => client.clientKey === clientKey);
  }

  authenticateClient(clientKey: string, clientSecret: string): Result<SandboxClient, OAuthError> {
    const client = this.findClient(clientKey);
    if (client === undefined || !sameSecret(client.clientSecret, clientSecret)) {
      return fail({ error: 'invalid_client', description: 'Client key or secret is invalid.' });
    }
    return ok(client);
  }

  /** The same username on the same app is always the same user (same open_id). */
  userFor(clientKey: string, username: string): SandboxUser {
    const openId = openIdFor(clientKey, username);
    const existing = this.users.get(openId);
    if (existing !== undefined) return existing;
    const user: SandboxUser = {
      openId,
      unionId: unionIdFor(username),
      username,
      displayName: displayNameFor(username),
      clientKey,
      createdAt: this.options.now(),
    };
    this.users.set(openId, user);
    this.onChange();
    return user;
  }

  findUser(openId: string): SandboxUser | undefined {
    return this.users.get(openId);
  }

  issueCode(input: {
    clientKey: string;
    redirectUri: string;
    username: string;
    scopes: SandboxScope[];
    codeChallenge: string | null;
  }): string {
    const user = this.userFor(input.clientKey, input.username);
    const code = newAuthorizationCode();
    this.codes.set(code, {
      clientKey: input.clientKey,
      redirectUri: input.redirectUri,
      openId: user.openId,
      scopes: input.scopes,
      codeChallenge: input.codeChallenge,
      createdAt: this.options.now(),
      usedAt: null,
    });
    return code;
  }

  exchangeCode(input: {
    clientKey: string;
    clientSecret: string;
    code: string;
    redirectUri: string;
    codeVerifier: string | undefined;
  }): Result<TokenResponse, OAuthError> {
    const client = this.authenticateClient(input.clientKey, input.clientSecret);
    if (!client.ok) return client;
    const grantError = (description: string) =>
      fail<OAuthError>({ error: 'invalid_grant', description });
    const entry = this.codes.get(input.code);
    const now = this.options.now();
    if (entry === undefined || entry.clientKey !== input.clientKey) {
      return grantError('Authorization code is invalid.');
    }
    if (entry.usedAt !== null) return grantError('Authorization code has already been used.');
    if (now >= entry.createdAt + this.options.authorizationCodeTtlSeconds * 1000) {
      return grantError('Authorization code has expired.');
    }
    if (entry.redirectUri !== input.redirectUri) {
      return grantError('redirect_uri does not match the one used to authorize.');
    }
    if (entry.codeChallenge !== null) {
      const verifier = input.codeVerifier ?? '';
      if (!CODE_VERIFIER.test(verifier))
        return grantError('code_verifier is missing or malformed.');
      // TikTok's PKCE uses the hex digest, not base64url as in RFC 7636.
      if (sha256Hex(verifier) !== entry.codeChallenge.toLowerCase()) {
        return grantError('code_verifier does not match code_challenge.');
      }
    }
    entry.usedAt = now;
    const grant: Grant = {
      id: this.nextGrantId++,
      clientKey: entry.clientKey,
      openId: entry.openId,
      scopes: entry.scopes,
      revokedAt: null,
    };
    this.grants.set(grant.id, grant);
    const tokens = this.issueTokens(grant, now);
    this.onChange();
    return ok(tokens);
  }

  refresh(input: {
    clientKey: string;
    clientSecret: string;
    refreshToken: string;
  }): Result<TokenResponse, OAuthError> {
    const client = this.authenticateClient(input.clientKey, input.clientSecret);
    if (!client.ok) return client;
    const now = this.options.now();
    const record = this.tokens.get(input.refreshToken);
    const grant = record === undefined ? undefined : this.grants.get(record.grantId);
    if (
      record === undefined ||
      record.kind !== 'refresh' ||
      grant === undefined ||
      grant.clientKey !== input.clientKey
    ) {
      return fail({ error: 'invalid_grant', description: 'Refresh token is invalid.' });
    }
    if (record.rotatedAt !== null) {
      return fail({ error: 'invalid_grant', description: 'Refresh token was already used.' });
    }
    if (record.revokedAt !== null || grant.revokedAt !== null) {
      return fail({ error: 'invalid_grant', description: 'Refresh token has been revoked.' });
    }
    if (now >= record.expiresAt) {
      return fail({ error: 'invalid_grant', description: 'Refresh token has expired.' });
    }
    record.rotatedAt = now;
    const tokens = this.issueTokens(grant, now);
    this.onChange();
    return ok(tokens);
  }

  /**
   * Revoking either token disconnects the app from that TikTok user, as TikTok documents it ("your
   * app no longer appears in the user's connected apps"): every grant of that user to this app
   * ends, not only the one the token came from.
   */
  revoke(input: {
    clientKey: string;
    clientSecret: string;
    token: string;
  }): Result<null, OAuthError> {
    const client = this.authenticateClient(input.clientKey, input.clientSecret);
    if (!client.ok) return client;
    const record = this.tokens.get(input.token);
    const grant = record === undefined ? undefined : this.grants.get(record.grantId);
    // Unknown tokens succeed silently (RFC 7009): there is nothing left to revoke.
    if (record === undefined || grant === undefined || grant.clientKey !== input.clientKey) {
      return ok(null);
    }
    const now = this.options.now();
    const ended = new Set<number>();
    for (const candidate of this.grants.values()) {
      if (candidate.clientKey === grant.clientKey && candidate.openId === grant.openId) {
        candidate.revokedAt ??= now;
        ended.add(candidate.id);
      }
    }
    for (const token of this.tokens.values()) {
      if (ended.has(token.grantId)) token.revokedAt ??= now;
    }
    this.onChange();
    return ok(null);
  }

  authenticateAccessToken(token: string): AuthenticatedToken | null {
    const record = this.tokens.get(token);
    if (record === undefined || record.kind !== 'access' || record.revokedAt !== null) return null;
    if (this.options.now() >= record.expiresAt) return null;
    const grant = this.grants.get(record.grantId);
    const user = grant === undefined ? undefined : this.users.get(grant.openId);
    if (grant === undefined || grant.revokedAt !== null || user === undefined) return null;
    return { user, scopes: grant.scopes, clientKey: grant.clientKey };
  }

  /** Fault injection: the token behaves as if its lifetime just ran out. */
  expireAccessToken(token: string): boolean {
    const record = this.tokens.get(token);
    if (record === undefined || record.kind !== 'access') return false;
    record.expiresAt = Math.min(record.expiresAt, this.options.now());
    this.onChange();
    return true;
  }

  grantOf(record: TokenRecord): { clientKey: string; openId: string; scopes: SandboxScope[] } {
    const grant = this.grants.get(record.grantId);
    return {
      clientKey: grant?.clientKey ?? '',
      openId: grant?.openId ?? '',
      scopes: grant?.scopes ?? [],
    };
  }

  /**
   * The records worth saving. Expired tokens are left out: they can never authenticate again and
   * an unknown token fails with the same error, so the file does not grow with every refresh.
   */
  snapshot(): PersistedOAuth {
    const now = this.options.now();
    const tokens = [...this.tokens.values()].filter((record) => now < record.expiresAt);
    const grantIds = new Set(tokens.map((record) => record.grantId));
    return {
      version: 1,
      users: [...this.users.values()],
      grants: [...this.grants.values()].filter((grant) => grantIds.has(grant.id)),
      tokens,
    };
  }

  /** Loads saved records on top of whatever is in memory (normally nothing: called at start). */
  restore(saved: PersistedOAuth): void {
    for (const user of saved.users) this.users.set(user.openId, { ...user });
    for (const grant of saved.grants) {
      this.grants.set(grant.id, { ...grant, scopes: [...grant.scopes] });
      this.nextGrantId = Math.max(this.nextGrantId, grant.id + 1);
    }
    for (const record of saved.tokens) this.tokens.set(record.token, { ...record });
  }

  private issueTokens(grant: Grant, now: number): TokenResponse {
    const accessToken = newToken('act');
    const refreshToken = newToken('rft');
    const accessTtl = this.options.accessTokenTtlSeconds;
    const refreshTtl = this.options.refreshTokenTtlSeconds;
    const base = { grantId: grant.id, issuedAt: now, revokedAt: null, rotatedAt: null };
    this.tokens.set(accessToken, {
      ...base,
      kind: 'access',
      token: accessToken,
      expiresAt: now + accessTtl * 1000,
    });
    this.tokens.set(refreshToken, {
      ...base,
      kind: 'refresh',
      token: refreshToken,
      expiresAt: now + refreshTtl * 1000,
    });
    return {
      access_token: accessToken,
      expires_in: accessTtl,
      open_id: grant.openId,
      refresh_expires_in: refreshTtl,
      refresh_token: refreshToken,
      scope: grant.scopes.join(','),
      token_type: 'Bearer',
    };
  }
}
