/** The x264 presets Cadence allows (MEME_COMPILE_PRESET), fastest first: the one list. */
export const X264_PRESETS = [
  'ultrafast',
  'superfast',
  'veryfast',
  'faster',
  'fast',
  'medium',
] as const;
export type X264Preset = (typeof X264_PRESETS)[number];
