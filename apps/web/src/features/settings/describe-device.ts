/** Browser and system a session's User-Agent names, when it is one we recognise. */
export interface Device {
  browser: string | null;
  os: string | null;
}

// Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari", iPadOS and iOS say "Mac OS X".
const browsers: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:HeadlessChrome|Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];
const systems: [RegExp, string][] = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** 'Firefox' on 'Windows', from a User-Agent header; null parts when not recognised. */
export function describeDevice(userAgent: string | null | undefined): Device {
  const agent = userAgent ?? '';
  const find = (patterns: [RegExp, string][]) =>
    patterns.find(([pattern]) => pattern.test(agent))?.[1] ?? null;
  return { browser: find(browsers), os: find(systems) };
}
