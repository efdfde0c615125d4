const zeroWidthSpace = '\u200B';

/**
 * A long username with invisible break opportunities (after `.`, `_`, `-` and every 16 characters),
 * for places that do not wrap words on their own, like the shared Dialog's title: a 64-character
 * handle would otherwise push the close button off a phone screen. Short names are left as they are.
 */
export function wrappableHandle(username: string, maxUnbroken = 20): string {
  if (username.length <= maxUnbroken) return username;
  return username
    .replace(/([._-])/g, `$1${zeroWidthSpace}`)
    .replace(/([^\u200B]{16})(?=[^\u200B])/g, `$1${zeroWidthSpace}`);
}
