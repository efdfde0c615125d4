// One rule for the form and the server: it lives in the shared package, which the web app imports.
export { isYouTubeUrl, parseYouTubeUrl, type YouTubeLink } from '@cadence/shared/youtube-url';
