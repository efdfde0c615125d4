/**
 * The product's rule for a YouTube link, kept exactly as permissive as the original spec: the
 * text must contain 'youtube.com/' or 'youtu.be/'. Shared by the form (instant message) and the
 * API (the same rule, enforced). The downloader is the real judge; this only catches obvious
 * typos before a round trip.
 */
export function isYouTubeUrl(value: string): boolean {
  return value.includes('youtube.com/') || value.includes('youtu.be/');
}
