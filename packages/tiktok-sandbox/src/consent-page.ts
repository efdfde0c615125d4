import { REQUIRED_SCOPES, type AuthorizeRequest } from './authorize-request.ts';
import type { SandboxScope } from './options.ts';

const SCOPE_DESCRIPTIONS: Record<SandboxScope, string> = {
  'user.info.basic': 'Read your profile info (avatar, display name)',
  'user.info.profile': 'Read your profile details (username, bio, verified status)',
  'user.info.stats': 'Read your stats (likes, followers, following, video count)',
  'video.list': 'Read your public videos',
  'video.upload': 'Share content to your TikTok inbox as drafts',
  'video.publish': 'Post content directly to your TikTok profile',
};

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * The pages carry their own CSP because the host app's helmet policy would block the inline
 * style and the form's cross-origin redirect. Chromium applies form-action to the redirect that
 * follows a submission, so the registered redirect_uri's origin is allowed explicitly.
 */
export function pageContentSecurityPolicy(redirectUri: string | null): string {
  const formAction = redirectUri === null ? "'none'" : `'self' ${new URL(redirectUri).origin}`;
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    `form-action ${formAction}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const STYLE = `
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
    background: #f1f1f2; color: #161823; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
  main { width: min(420px, 100% - 32px); background: #fff; border-radius: 12px; padding: 28px;
    box-shadow: 0 2px 12px rgba(0, 0, 0, .08); }
  .brand { display: flex; align-items: center; gap: 8px; font-weight: 700; font-size: 20px; }
  .logo { width: 28px; height: 28px; border-radius: 8px; background: #000; color: #fff; display: grid;
    place-items: center; box-shadow: -2px -2px 0 #25f4ee, 2px 2px 0 #fe2c55; }
  .badge { margin-left: auto; font-size: 12px; font-weight: 600; padding: 2px 8px; border-radius: 999px;
    background: #fff4d6; color: #7a5200; }
  h1 { font-size: 20px; margin: 20px 0 4px; }
  p.lead { margin: 0 0 16px; color: #555; }
  fieldset { border: 0; padding: 0; margin: 0 0 16px; }
  legend { font-weight: 600; margin-bottom: 8px; }
  .scope { display: flex; gap: 10px; align-items: flex-start; padding: 8px 0; border-top: 1px solid #eee; }
  .scope input { flex: none; margin-top: 4px; width: 18px; height: 18px; accent-color: #fe2c55; }
  .scope code { display: block; font-size: 12px; color: #777; }
  label.field { display: block; font-weight: 600; margin-bottom: 6px; }
  input[type=text] { width: 100%; padding: 10px 12px; font: inherit; border: 1px solid #ccc; border-radius: 8px; }
  input[type=text]:focus, button:focus-visible { outline: 3px solid #25f4ee; outline-offset: 1px; }
  .hint { font-size: 13px; color: #666; margin: 6px 0 20px; }
  .error { background: #ffe9ec; color: #a1001c; padding: 10px 12px; border-radius: 8px; margin: 12px 0; }
  .actions { display: flex; gap: 12px; }
  button { flex: 1; padding: 12px; font: inherit; font-weight: 600; border-radius: 8px; cursor: pointer;
    border: 1px solid #ccc; background: #fff; color: #161823; }
  button.primary { background: #fe2c55; border-color: #fe2c55; color: #fff; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="brand"><span class="logo" aria-hidden="true">♪</span>TikTok<span class="badge">Sandbox</span></div>
${body}
</main>
</body>
</html>
`;
}

export interface ConsentPageInput {
  request: AuthorizeRequest;
  /** Absolute path of the authorize endpoint, prefix included. */
  formAction: string;
  username: string;
  /** Shown above the form when a submission was refused (e.g. a malformed username). */
  error?: string;
}

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
}

function scopeRow(scope: SandboxScope, index: number): string {
  const required = REQUIRED_SCOPES.includes(scope);
  const id = `scope-${index}`;
  // A disabled checkbox is not submitted: the server grants required scopes on its own.
  const attributes = required ? 'checked disabled' : 'checked';
  return `<div class="scope">
<input type="checkbox" id="${id}" name="granted_scope" value="${scope}" ${attributes}>
<label for="${id}">${escapeHtml(SCOPE_DESCRIPTIONS[scope])}${required ? ' (required)' : ''}<code>${scope}</code></label>
</div>`;
}

/** TikTok's consent screen, without script: works with JavaScript disabled. */
export function renderConsentPage(input: ConsentPageInput): string {
  const { request } = input;
  const appName = request.client.appName ?? 'Cadence';
  const error =
    input.error === undefined ? '' : `<p class="error" role="alert">${escapeHtml(input.error)}</p>`;
  const body = `<h1>${escapeHtml(appName)} would like to access your TikTok account</h1>
<p class="lead">Choose what ${escapeHtml(appName)} may do. You can change this later in TikTok's settings.</p>
${error}
<form method="post" action="${escapeHtml(input.formAction)}">
${hidden('client_key', request.client.clientKey)}
${hidden('redirect_uri', request.redirectUri)}
${hidden('response_type', 'code')}
${hidden('scope', request.scopes.join(','))}
${hidden('state', request.state)}
${request.codeChallenge === null ? '' : hidden('code_challenge', request.codeChallenge) + hidden('code_challenge_method', 'S256')}
<fieldset>
<legend>${escapeHtml(appName)} is requesting permission to:</legend>
${request.scopes.map(scopeRow).join('\n')}
</fieldset>
<label class="field" for="username">TikTok username</label>
<input type="text" id="username" name="username" value="${escapeHtml(input.username)}" required
  minlength="2" maxlength="24" pattern="[A-Za-z0-9._]{2,24}" autocomplete="username" aria-describedby="username-hint">
<p class="hint" id="username-hint">Sandbox: any username; the same one always signs in the same account.</p>
<!-- Authorize comes first so that pressing Enter in the username field authorizes. -->
<div class="actions">
<button type="submit" name="action" value="authorize" class="primary">Authorize</button>
<button type="submit" name="action" value="deny" formnovalidate>Deny</button>
</div>
</form>`;
  return layout(`Authorize ${appName} | TikTok`, body);
}

export function renderErrorPage(message: string): string {
  const body = `<h1>Something went wrong</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p class="lead">The app that sent you here made an invalid authorization request. You can close this page.</p>`;
  return layout('Authorization error | TikTok', body);
}

/** What a published video's page shows (the sandbox's stand-in for tiktok.com/@user/video/id). */
export interface VideoPageInput {
  username: string;
  title: string;
  /** Relative to the page: the sandbox's own cover card. */
  coverPath: string;
  createdAtMs: number;
}

export function renderVideoPage(video: VideoPageInput | null): string {
  if (video === null) {
    const body = `<h1>Video not found</h1>
<p class="lead">No public video of this sandbox has this address (yet: a post is public once moderation has passed it).</p>`;
    return layout('Video not found | TikTok', body);
  }
  const body = `<h1>@${escapeHtml(video.username)}</h1>
<p class="lead">${escapeHtml(video.title === '' ? '(no caption)' : video.title)}</p>
<img src="${escapeHtml(video.coverPath)}" width="180" height="320" alt="Cover of the video">
<p class="hint">Published on ${escapeHtml(new Date(video.createdAtMs).toISOString().replace('T', ' ').slice(0, 16))} UTC.
This is the local TikTok sandbox: the video was not posted on tiktok.com.</p>`;
  return layout(`@${video.username} | TikTok`, body);
}
